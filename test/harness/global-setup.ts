import { rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pino } from "pino";
import type { TestProject } from "vitest/node";
import { openDatabase } from "../../src/db/client.ts";
import { startJobRuntime } from "../../src/jobs/job-queue.ts";

declare module "vitest" {
  export interface ProvidedContext {
    pgliteSnapshot: string;
  }
}

/**
 * Builds one migrated embedded database (with the job queue's schema) per run and hands its
 * tarball to every test file: a fresh PGlite from a snapshot starts several times faster than
 * initdb plus migrations. The returned teardown deletes the tarball (about 43 MB) when the run
 * ends, whether its tests passed or not.
 */
export default async function setup(project: TestProject): Promise<() => void> {
  const database = await openDatabase({ kind: "pglite", dataDir: null });
  const jobs = await startJobRuntime(database, pino({ level: "silent" }));
  await jobs.stop({ graceful: false });
  const snapshot = await database.dump!();
  await database.close();
  const path = join(tmpdir(), `agentdesk-test-pglite-${process.pid}.tar`);
  writeFileSync(path, Buffer.from(await snapshot.arrayBuffer()));
  project.provide("pgliteSnapshot", path);
  return () => rmSync(path, { force: true });
}
