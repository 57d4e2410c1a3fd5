import { Worker } from "node:worker_threads";
import { pino } from "pino";
import { createRuntime, type Runtime } from "../src/app/runtime.ts";
import { parseConfig } from "../src/config/index.ts";
import type { Caller } from "../src/domain/caller.ts";
import { benchDatabases } from "./lib/databases.ts";
import { markdownDocument } from "./lib/knowledge-data.ts";
import { formatTable } from "./lib/load.ts";

/**
 * npm run bench -- ingest-reads [--mb=2] [--interval-ms=50]
 *
 * How long API reads wait while the same process ingests a large file: a Markdown upload of
 * about `--mb` MB goes through the job queue and the ingestion job as in production, and every
 * `--interval-ms` a worker thread (its own event loop) asks the listening API for another
 * datasource (`GET /api/datasources/{id}`) and for a search of another datastore (`POST
 * /api/datastores/{id}/query`) until the sync ends. On PGlite
 * every statement shares one connection, so a long ingestion statement or transaction makes
 * every read wait behind it; PostgreSQL is shown for comparison (BENCH_DATABASE_URL or
 * TEST_DATABASE_URL).
 */
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

const FINAL = new Set(["synched", "error", "usage_limit_reached"]);

export async function run(args: string[]): Promise<void> {
  const option = (name: string, fallback: number) =>
    Number(args.find((arg) => arg.startsWith(`--${name}=`))?.split("=")[1] ?? fallback);
  const megabytes = option("mb", 2);
  const intervalMs = option("interval-ms", 50);
  const rows: Array<Record<string, string | number>> = [];

  for await (const bench of benchDatabases()) {
    const runtime = await createRuntime({
      config: parseConfig({
        LOG_LEVEL: "silent",
        BOOTSTRAP_DEFAULT_ORG: "false",
        KNOWLEDGE_PLAN_LIMITS: "",
      }),
      logger: pino({ level: "silent" }),
      role: "all",
      database: bench.database,
    });
    try {
      rows.push(...(await measure(runtime, bench.label, megabytes, intervalMs)));
    } finally {
      await runtime.close();
      await bench.dispose();
    }
  }
  process.stdout.write(`\n${formatTable(rows)}\n`);
}

async function measure(runtime: Runtime, label: string, megabytes: number, intervalMs: number) {
  const { knowledge, organizations } = runtime.services;
  const api = runtime.api!;
  const { organization, user, apiKey, apiKeyId } = await organizations.createOrganization({
    name: "bench",
    plan: "bench",
  });
  const context: Caller = {
    organizationId: organization.id,
    userId: user.id,
    apiKeyId,
    agentIds: null,
    actor: { type: "key", id: apiKeyId },
    requestId: "bench",
  };
  const headers = { authorization: `Bearer ${apiKey}` };

  const searched = await knowledge.datastores.create(context, { name: "searched" });
  const small = await knowledge.datasources.createFile(context, {
    datastoreId: searched.id,
    file: {
      bytes: Buffer.from(markdownDocument(0, 20_000, 7)),
      declaredMime: "text/markdown",
      fileName: "small.md",
    },
  });
  await waitFinal(runtime, headers, small.id);

  const baseUrl = await api.listen({ host: "127.0.0.1", port: 0 });
  const prober = new Worker(new URL("./lib/probe-worker.mjs", import.meta.url), {
    workerData: {
      intervalMs,
      requests: [
        {
          label: "GET datasource",
          method: "GET",
          url: `${baseUrl}/api/datasources/${small.id}`,
          headers,
        },
        {
          label: "datastore query",
          method: "POST",
          url: `${baseUrl}/api/datastores/${searched.id}/query`,
          headers: { ...headers, "content-type": "application/json" },
          body: JSON.stringify({ query: "How do I reset my password?", topK: 5 }),
        },
      ],
    },
  });
  const target = await knowledge.datastores.create(context, { name: "ingested" });
  const big = Buffer.from(markdownDocument(1, megabytes * 1024 * 1024, 3));
  const started = performance.now();
  const created = await knowledge.datasources.createFile(context, {
    datastoreId: target.id,
    file: { bytes: big, declaredMime: "text/markdown", fileName: "big.md" },
  });
  await waitFinal(runtime, headers, created.id);
  const seconds = (performance.now() - started) / 1000;
  const latencies = await new Promise<Record<string, number[]>>((resolve, reject) => {
    prober.once("message", resolve);
    prober.once("error", reject);
    prober.postMessage("stop");
  });
  await prober.terminate();
  const final = await api.inject({ method: "GET", url: `/api/datasources/${created.id}`, headers });
  const row = (what: string, samples: number[]) => {
    const sorted = [...samples].sort((a, b) => a - b);
    return {
      database: label,
      read: what,
      "ingest s": seconds.toFixed(1),
      chunks: final.json().chunkCount,
      reads: sorted.length,
      "p50 ms": percentile(sorted, 50).toFixed(0),
      "p99 ms": percentile(sorted, 99).toFixed(0),
      "max ms": (sorted.at(-1) ?? 0).toFixed(0),
    };
  };
  return Object.entries(latencies).map(([what, samples]) => row(what, samples));
}

async function waitFinal(runtime: Runtime, headers: Record<string, string>, id: string) {
  for (;;) {
    const read = await runtime.api!.inject({
      method: "GET",
      url: `/api/datasources/${id}`,
      headers,
    });
    if (FINAL.has(read.json().status)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
