import { defineConfig } from "vitest/config";
import { HOOK_TIMEOUT_MS, TEST_TIMEOUT_MS } from "./test/harness/timeouts.ts";

// Every test file runs against PGlite; when TEST_DATABASE_URL is set the same files run a second
// time against that PostgreSQL server (each file in a database of its own).
const databases = process.env.TEST_DATABASE_URL ? ["pglite", "postgres"] : ["pglite"];

export default defineConfig({
  test: {
    testTimeout: TEST_TIMEOUT_MS,
    hookTimeout: HOOK_TIMEOUT_MS,
    pool: "forks",
    // Vitest's default is one worker fewer than the cores: a single one on the two-core CI
    // machines. Most of a file's time is waiting (servers, retries, backoff), so two overlap well.
    maxWorkers: 2,
    projects: databases.map((database) => ({
      extends: true,
      test: {
        name: database,
        env: { AGENTDESK_TEST_DB: database },
        include: ["test/**/*.test.ts"],
        globalSetup: [
          "test/harness/build-dist.ts",
          ...(database === "pglite" ? ["test/harness/global-setup.ts"] : []),
        ],
      },
    })),
  },
});
