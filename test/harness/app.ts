import type { AddressInfo } from "node:net";
import { pino } from "pino";
import { createRuntime, type Role, type Runtime } from "../../src/app/runtime.ts";
import { type Config, parseConfig } from "../../src/config/index.ts";
import type { Database } from "../../src/db/client.ts";
import type { App } from "../../src/http/app-types.ts";
import type { Logger } from "../../src/lib/logger.ts";
import { type ApiClient, createClient, type Headers } from "./client.ts";
import { createTestDatabase } from "./database.ts";

export const ADMIN_TOKEN = "test-admin-token";
/** Seals channel credentials in tests (32 bytes, hex). */
const TEST_SECRETS_KEY = "7e".repeat(32);

export type TestApp = {
  runtime: Runtime;
  config: Config;
  database: Database;
  api: App;
  site: App;
  /** A typed client of the dashboard API sending these headers (an organization's `auth`). */
  client(headers?: Headers): ApiClient;
  /** The client of /api/admin/*, with the admin token. */
  admin: ApiClient;
  /** Creates an organization through the admin API and returns its id and key. */
  createOrganization(name?: string, extra?: Record<string, unknown>): Promise<TestOrganization>;
  /** Listens on 127.0.0.1 and returns the base URL of the chosen listener. */
  listen(which: "api" | "site"): Promise<string>;
  close(): Promise<void>;
};

export type TestOrganization = {
  id: string;
  apiKey: string;
  apiKeyId: string;
  userId: string;
  auth: { authorization: string };
};

export type TestAppOptions = {
  env?: Record<string, string>;
  role?: Role;
  /** Share one database between several app instances (e.g. two API processes). */
  database?: Database;
  /** Where the app logs; silent when absent. */
  logger?: Logger;
};

/** The whole service as one process, on a fresh database, silent unless given a logger. */
export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const config = parseConfig({
    NODE_ENV: "test",
    ADMIN_TOKEN,
    LOG_LEVEL: "silent",
    BOOTSTRAP_DEFAULT_ORG: "false",
    SECRETS_KEY: TEST_SECRETS_KEY,
    ...options.env,
  });
  const ownsDatabase = options.database === undefined;
  const database = options.database ?? (await createTestDatabase());
  const runtime = await createRuntime({
    config,
    logger: options.logger ?? pino({ level: "silent" }),
    role: options.role ?? "all",
    database,
  });
  const api = runtime.api!;
  const site = runtime.site!;
  await Promise.all([api.ready(), site.ready()]);
  const admin = createClient(api, { authorization: `Bearer ${ADMIN_TOKEN}` });

  return {
    runtime,
    config,
    database,
    api,
    site,
    client: (headers = {}) => createClient(api, headers),
    admin,
    async createOrganization(name = "Acme", extra = {}) {
      const { status, body, text } = await admin.admin.createOrganization({ name, ...extra });
      if (status !== 201) throw new Error(`createOrganization: ${text}`);
      return {
        id: body.organization.id,
        apiKey: body.apiKey,
        apiKeyId: body.apiKeyId,
        userId: body.user.id,
        auth: { authorization: `Bearer ${body.apiKey}` },
      };
    },
    async listen(which) {
      const app = which === "api" ? api : site;
      if (!app.server.listening) await app.listen({ host: "127.0.0.1", port: 0 });
      const { port } = app.server.address() as AddressInfo;
      return `http://127.0.0.1:${port}`;
    },
    async close() {
      await runtime.close();
      if (ownsDatabase) await database.close();
    },
  };
}
