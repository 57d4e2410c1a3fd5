import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "vitest";
import { createTestDatabase, testDatabaseKind } from "../harness/database.ts";
import { type ServiceProcess, startServiceProcess } from "../harness/service-process.ts";

/**
 * The `test` of a file that runs `agentdesk serve` as its own processes. Once per file:
 * - `storage`: where the processes keep their data: on PGlite a temporary DATA_DIR (its name
 *   starting with `dataDirPrefix`), which a process started again opens as the last one left it;
 *   on PostgreSQL a fresh database (DATABASE_URL), which processes share;
 * - `env`: the processes' environment, `storage` unless the file overrides it;
 * - `spawnService`: starts a process with `env`; every process it started is killed (SIGKILL)
 *   once the file is done.
 */
export function serviceTest(dataDirPrefix: string) {
  return (
    test
      // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from it
      .extend("storage", { scope: "file" }, async ({}, { onCleanup }) => {
        if (testDatabaseKind === "pglite") {
          const dataDir = mkdtempSync(join(tmpdir(), dataDirPrefix));
          onCleanup(() => rmSync(dataDir, { recursive: true, force: true }));
          return { DATA_DIR: dataDir } as Record<string, string>;
        }
        const database = await createTestDatabase();
        onCleanup(() => database.close());
        return { DATABASE_URL: database.connectionString! } as Record<string, string>;
      })
      .extend("env", { scope: "file" }, ({ storage }) => storage)
      .extend("spawnService", { scope: "file" }, ({ env }, { onCleanup }) => {
        const processes: ServiceProcess[] = [];
        onCleanup(async () => {
          await Promise.all(processes.map((service) => service.kill()));
        });
        return async (): Promise<ServiceProcess> => {
          const service = await startServiceProcess(env);
          processes.push(service);
          return service;
        };
      })
  );
}
