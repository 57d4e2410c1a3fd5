import { existsSync } from "node:fs";

/** `npm run bench -- <name> [args…]` runs bench/<name>.ts, which prints its own table. */
const [name, ...args] = process.argv.slice(2);
const file = new URL(`./${name}.ts`, import.meta.url);
if (!name || !/^[a-z0-9-]+$/.test(name) || !existsSync(file)) {
  process.stderr.write(
    "Usage: npm run bench -- <leads|inbox|knowledge|exact-or-hnsw|ingest-reads|ingest-memory|embedded-memory|query|billing|webhooks|auth|channels|events|eval|perf-idle-streams|console> [args]\n",
  );
  process.exit(2);
}
const benchmark = (await import(file.href)) as { run(args: string[]): Promise<void> };
await benchmark.run(args);
