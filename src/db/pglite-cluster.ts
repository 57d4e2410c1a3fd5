import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { promisify } from "node:util";

const execFileAsync = promisify(execFile);
const INITDB_TIMEOUT_MS = 120_000;

// Plain CommonJS for `node -e`: it runs the same under `npm start`, tsx and the tests' workers.
const CREATE_CLUSTER = `require(process.argv[1]).PGlite.create({ dataDir: process.argv[2] })
  .then((client) => client.close())
  .catch((error) => { console.error(error); process.exit(1); });`;

/**
 * Creates an empty PGlite cluster in `location` (initdb) in a child process, unless one is there.
 * In the service's own process initdb peaked at 780 MB RSS and left 110-175 MB behind that the
 * allocator never handed back (346 MB after opening a fresh cluster, 172 MB for an existing one):
 * see docs/operations.md, _Memory of the embedded database_.
 */
export async function ensurePgliteCluster(location: string): Promise<void> {
  if (existsSync(join(location, "PG_VERSION"))) return;
  const pglite = createRequire(import.meta.url).resolve("@electric-sql/pglite");
  await execFileAsync(process.execPath, ["-e", CREATE_CLUSTER, pglite, location], {
    timeout: INITDB_TIMEOUT_MS,
  });
}
