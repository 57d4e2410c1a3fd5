import { pino } from "pino";
import { test } from "vitest";
import type { Role } from "../../src/app/runtime.ts";
import type { Database } from "../../src/db/client.ts";
import { startJobRuntime } from "../../src/jobs/job-queue.ts";
import type { Logger } from "../../src/lib/logger.ts";
import {
  type AgentFields,
  createAgent,
  createFundedOrganization,
  startQueryTestApp,
} from "./agents.ts";
import { createTestDatabase } from "./database.ts";

export type AppTestOptions = {
  /** Environment of the app, over the fake OpenAI's key and URL. */
  env?: Record<string, string>;
  /** No model provider key at all, as a fresh install. */
  offline?: boolean;
  /** The processes the app runs as (all of them unless told). */
  role?: Role;
  /** Where the app logs (silent unless told), for the files that read its log. */
  logger?: Logger;
  /** The name of the organization of the `org` fixture. */
  orgName?: string;
  /** False for an `org` on the free plan's allowance, without the 1,000 credits. */
  funded?: boolean;
  /** Fields of the `agent` fixture, over name Support and model gpt_4o_mini. */
  agent?: AgentFields;
};

/**
 * The `test` of a file that talks to the app through its front door. Each fixture is set up once
 * per file, the first time a test (or `test.beforeAll`) asks for it:
 * - `env`: the app's environment, over the fake OpenAI's key and URL;
 * - `app`: the whole service on a fresh database, its OpenAI models pointed at `fake`;
 * - `fake`: the fake OpenAI server; its recorded `requests` start empty in every test;
 * - `org`: an organization with 1,000 credits (unless `funded: false`); `api`: the typed client
 *   with its key;
 * - `agent`: an agent of `org`.
 * The app is started before the file's first test, in a hook.
 */
export function appTest(options: AppTestOptions = {}) {
  const appTested = test
    .extend("env", { scope: "file" }, options.env ?? {})
    .extend("service", { scope: "file" }, async ({ env }, { onCleanup }) => {
      const service = await startQueryTestApp(env, {
        offline: options.offline,
        role: options.role,
        logger: options.logger,
      });
      onCleanup(() => service.close());
      return service;
    })
    .extend("app", { scope: "file" }, ({ service }) => service.app)
    .extend("fake", { scope: "file" }, ({ service }) => service.fake)
    .extend("org", { scope: "file" }, ({ app }) =>
      options.funded === false
        ? app.createOrganization(options.orgName)
        : createFundedOrganization(app, options.orgName),
    )
    .extend("api", { scope: "file" }, ({ app, org }) => app.client(org.auth))
    .extend("agent", { scope: "file" }, ({ app, org }) => createAgent(app, org, options.agent))
    .extend("fakeRequestsCleared", { auto: true }, ({ fake }) => {
      fake.requests.length = 0;
      return true;
    });
  // The app starts in a hook of the file, so it has a hook's time (HOOK_TIMEOUT_MS), not the
  // first test's: on a busy two-core machine starting it on PGlite takes up to 30 s.
  appTested.beforeAll(({ service }) => {
    void service;
  });
  return appTested;
}

/**
 * The `test` of a file that works on a database without the app:
 * - `database`: a fresh, migrated database (or the one `open` gives), set up once per file.
 */
export function databaseTest(open: () => Promise<Database> = createTestDatabase) {
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from it.
  return test.extend("database", { scope: "file" }, async ({}, { onCleanup }) => {
    const database = await open();
    onCleanup(() => database.close());
    return database;
  });
}

/** `databaseTest` and the job queue over that database (`jobs`), started once per file. */
export function jobTest() {
  return databaseTest().extend("jobs", { scope: "file" }, async ({ database }, { onCleanup }) => {
    const jobs = await startJobRuntime(database, pino({ level: "silent" }));
    onCleanup(() => jobs.stop({ graceful: false, timeoutMs: 1_000 }));
    return jobs;
  });
}
