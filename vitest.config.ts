import { defineConfig } from "vitest/config";
import { HOOK_TIMEOUT_MS, TEST_TIMEOUT_MS } from "./test/harness/timeouts.ts";

// Every test file runs against PGlite; when TEST_DATABASE_URL is set the same files run a second
// time against that PostgreSQL server (each file in a database of its own; the server must have
// pgvector), and the files of the knowledge search once more on that server in databases where
// pgvector cannot be installed (the exact-scoring fallback).
const databases = process.env.TEST_DATABASE_URL
  ? ["pglite", "postgres", "postgres-without-pgvector"]
  : ["pglite"];

const SEARCH_FILES = [
  "test/retrieval/**/*.test.ts",
  "test/knowledge/retrieval-quality.test.ts",
  "test/knowledge/datastores.test.ts",
  "test/knowledge/embedding-models.test.ts",
  "test/query/query-knowledge.test.ts",
  "test/db/without-pgvector.test.ts",
];

export default defineConfig({
  test: {
    testTimeout: TEST_TIMEOUT_MS,
    hookTimeout: HOOK_TIMEOUT_MS,
    pool: "forks",
    // A worker keeps its modules from one file to the next instead of importing the AI SDK,
    // drizzle, pdf.js and the app afresh for each: 617 s for the PGlite files on a 2-core machine
    // with isolation, 383 s without (import time 240 s to 23 s). Files share no state but the
    // modules': each starts its own app, database and fake servers, and restores what it fakes.
    isolate: false,
    // Vitest's default is one worker fewer than the cores: a single one on the two-core CI
    // machines. Most of a file's time is waiting (servers, retries, backoff), so two overlap well.
    maxWorkers: 2,
    projects: databases.map((database) => ({
      extends: true,
      test: {
        name: database,
        env: { AGENTDESK_TEST_DB: database },
        include: database === "postgres-without-pgvector" ? SEARCH_FILES : ["test/**/*.test.ts"],
        globalSetup: [
          "test/harness/build-dist.ts",
          ...(database === "pglite" ? ["test/harness/global-setup.ts"] : []),
        ],
      },
    })),
  },
});
