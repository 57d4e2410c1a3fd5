import { readdirSync, readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { sql } from "drizzle-orm";
import { Pool } from "undici";
import {
  ADMIN_TOKEN,
  startTestApp,
  type TestApp,
  type TestOrganization,
} from "../test/harness/app.ts";
import { multipartBody, waitForSync } from "../test/knowledge/knowledge-helpers.ts";
import { benchDatabases } from "./lib/databases.ts";
import { startModelProcess } from "./lib/fake-model-process.ts";
import { formatTable, runLoad } from "./lib/load.ts";

/**
 * npm run bench -- query [--seconds=8] [--connections=16] [--samples=200] [--export-rows=100000]
 *   [--only=pglite|postgres]
 *
 * With a zero-latency fake OpenAI server in its own process on 127.0.0.1, on PGlite and on
 * PostgreSQL (BENCH_DATABASE_URL or TEST_DATABASE_URL):
 * - non-streaming queries per second under load, and the platform's overhead per query: the
 *   latency of a query minus the latency of the same model call made directly to the fake, at p50
 *   (sequential requests), and the query's p99 minus that call's p50, with a ~1,000-chunk
 *   datastore attached to the agent;
 * - streaming: time to the first `answer` frame minus the fake's own time to its first chunk;
 * - the CSV export of 100,000 messages: rows per second and peak RSS growth of the process.
 * Queries run twice: for an agent with the datastore and for one without, which separates the
 * platform's own overhead from retrieval. The 1-minute load average is printed with each row,
 * since the figures are only as quiet as the machine.
 */
const MB = 1024 * 1024;
const CORPUS = new URL("../test/fixtures/retrieval/corpus/", import.meta.url);

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
const ms = (value: number) => value.toFixed(2);

/** A Markdown document of about `bytes` bytes of help-centre prose, in sections. */
function knowledgeDocument(bytes: number): string {
  const sentences = readdirSync(CORPUS)
    .filter((name) => name.endsWith(".md"))
    .flatMap((name) => readFileSync(new URL(name, CORPUS), "utf8").split("\n"))
    .filter((line) => line.trim() !== "" && !line.startsWith("#"))
    .flatMap((line) => line.split(/(?<=[.!?])\s+/));
  let text = "# Help centre\n\n";
  for (let index = 0; text.length < bytes; index += 1) {
    if (index % 12 === 0) text += `## Topic ${index / 12}\n\n`;
    const picked = [0, 1, 2, 3].map(
      (offset) => sentences[(index * 7 + offset * 13) % sentences.length],
    );
    text += `${picked.join(" ")} (ref ${index})\n\n`;
  }
  return text;
}

async function setUp(app: TestApp, org: TestOrganization) {
  const inject = (method: "POST", url: string, payload: object) =>
    app.api.inject({ method, url, headers: org.auth, payload });
  await app.api.inject({
    method: "POST",
    url: `/api/admin/organizations/${org.id}/credits`,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    payload: { amount: 1_000_000 },
  });
  const datastore = (await inject("POST", "/api/datastores", { name: "Help centre" })).json();
  const upload = multipartBody(
    [
      { name: "type", value: "file" },
      { name: "datastoreId", value: datastore.id },
    ],
    {
      fileName: "help-centre.md",
      contentType: "text/markdown",
      content: knowledgeDocument(2.2 * MB),
    },
  );
  const created = await app.api.inject({
    method: "POST",
    url: "/api/datasources",
    headers: { ...org.auth, ...upload.headers },
    payload: upload.payload,
  });
  const synced = await waitForSync(app, org, created.json().id, 600_000);
  // A live datastore has statistics (autovacuum on PostgreSQL, the service itself on PGlite);
  // measure that steady state rather than the minute after an upload.
  await app.database.db.execute(sql`analyze knowledge_chunks`);
  const agent = (
    await inject("POST", "/api/agents", {
      name: "Bench",
      modelName: "gpt_4o_mini",
      datastoreIds: [datastore.id],
    })
  ).json();
  return { agentId: agent.id as string, chunks: synced.chunkCount };
}

type Timed = { total: number; firstByte: number };

async function timeRequest(
  pool: Pool,
  path: string,
  headers: Record<string, string>,
  body: string,
  until?: string,
) {
  const started = performance.now();
  const response = await pool.request({
    path,
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body,
  });
  let firstByte = 0;
  let seen = "";
  for await (const chunk of response.body) {
    if (firstByte === 0 && until === undefined) firstByte = performance.now() - started;
    if (until !== undefined && firstByte === 0) {
      seen += chunk.toString();
      if (seen.includes(until)) firstByte = performance.now() - started;
    }
  }
  if (response.statusCode !== 200) throw new Error(`${path}: HTTP ${response.statusCode}`);
  return { total: performance.now() - started, firstByte } satisfies Timed;
}

async function sequential(count: number, run: (index: number) => Promise<Timed>) {
  for (let index = 0; index < 20; index += 1) await run(index);
  const totals: number[] = [];
  const firstBytes: number[] = [];
  for (let index = 0; index < count; index += 1) {
    const timed = await run(index);
    totals.push(timed.total);
    firstBytes.push(timed.firstByte);
  }
  totals.sort((a, b) => a - b);
  firstBytes.sort((a, b) => a - b);
  return { totals, firstBytes };
}

async function measureQueries(
  app: TestApp,
  org: TestOrganization,
  agentId: string,
  modelUrl: string,
  options: Options,
) {
  const base = await app.listen("api");
  const server = new Pool(base, { connections: 1 });
  const model = new Pool(new URL(modelUrl).origin, { connections: 1 });
  const questions = [
    "How do I reset the hub?",
    "What does the warranty cover?",
    "Can I pay by invoice?",
  ];
  const queryBody = (index: number, streaming: boolean) =>
    JSON.stringify({ query: `${questions[index % questions.length]} (${index})`, streaming });
  // The model call the platform makes, replayed straight to the fake for the baseline.
  const modelBody = (index: number) =>
    JSON.stringify({
      model: "gpt-4o-mini",
      stream: true,
      stream_options: { include_usage: true },
      messages: [
        { role: "system", content: knowledgeDocument(9_000) },
        { role: "user", content: `${questions[index % questions.length]} (${index})` },
      ],
    });
  const modelPath = `${new URL(modelUrl).pathname}/chat/completions`;
  const modelHeaders = { authorization: "Bearer sk-bench" };
  const queryPath = `/api/agents/${agentId}/query`;

  const json = await sequential(options.samples, (index) =>
    timeRequest(server, queryPath, org.auth, queryBody(index, false)),
  );
  const direct = await sequential(options.samples, (index) =>
    timeRequest(model, modelPath, modelHeaders, modelBody(index)),
  );
  const stream = await sequential(options.samples, (index) =>
    timeRequest(server, queryPath, org.auth, queryBody(index, true), "event: answer"),
  );
  await server.close();
  await model.close();

  const load = await runLoad({
    url: `${base}${queryPath}`,
    method: "POST",
    headers: org.auth,
    bodyTemplate: JSON.stringify({ query: "How do I reset the hub? ({{i}})" }),
    connections: options.connections,
    durationMs: options.seconds * 1000,
  });
  const model50 = percentile(direct.totals, 50);
  const modelFirst = percentile(direct.firstBytes, 50);
  return {
    "queries/s": load.perSecond.toFixed(0),
    "load p50 ms": ms(load.p50Ms),
    "load p99 ms": ms(load.p99Ms),
    errors:
      load.errors +
      Object.entries(load.statuses)
        .filter(([status]) => status !== "200")
        .reduce((sum, [, n]) => sum + n, 0),
    "model p50 ms": ms(model50),
    "overhead p50 ms": ms(percentile(json.totals, 50) - model50),
    // Less the model's typical time, not its own p99: a difference of two tails can come out
    // negative, and the fake's tail is not ours to subtract.
    "overhead p99 ms": ms(percentile(json.totals, 99) - model50),
    "SSE first answer p50 ms": ms(percentile(stream.firstBytes, 50)),
    "SSE TTFB overhead p50 ms": ms(percentile(stream.firstBytes, 50) - modelFirst),
  };
}

async function seedMessages(app: TestApp, org: TestOrganization, agentId: string, rows: number) {
  const perConversation = 100;
  const conversations = Math.ceil(rows / perConversation);
  await app.database.db.execute(sql`
    insert into conversations (id, external_id, organization_id, agent_id, visitor_id, channel)
    select 'bench-c' || n, 'bench-c' || n, ${org.id}, ${agentId}, 'bench-v' || n, 'website'
    from generate_series(1, ${conversations}) as n`);
  await app.database.db.execute(sql`
    insert into messages (id, organization_id, conversation_id, agent_id, "from", text, created_at)
    select 'bench-m' || n, ${org.id}, 'bench-c' || (1 + (n - 1) / ${perConversation}), ${agentId},
           case when n % 2 = 0 then 'agent' else 'human' end,
           'Message ' || n || ': "Is the order, placed on Monday, going to arrive before the weekend?"',
           timestamptz '2024-01-01T00:00:00Z' + (n || ' seconds')::interval
    from generate_series(1, ${rows}) as n`);
}

async function measureExport(app: TestApp, org: TestOrganization, agentId: string, rows: number) {
  await seedMessages(app, org, agentId, rows);
  const base = await app.listen("api");
  globalThis.gc?.();
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 5);
  const started = performance.now();
  const response = await fetch(`${base}/api/agents/${agentId}/conversations-export?limit=${rows}`, {
    headers: org.auth,
  });
  let lines = 0;
  let bytes = 0;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    bytes += chunk.byteLength;
    for (const byte of chunk) if (byte === 10) lines += 1;
    peak = Math.max(peak, process.memoryUsage().rss);
  }
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  return {
    "export rows": lines - 1,
    "export MB": (bytes / MB).toFixed(1),
    "export s": seconds.toFixed(2),
    "rows/s": Math.round((lines - 1) / seconds),
    "peak RSS growth MB": ((peak - before) / MB).toFixed(1),
  };
}

type Options = { seconds: number; connections: number; samples: number; exportRows: number };

export async function run(args: string[]): Promise<void> {
  const option = (name: string, fallback: number) =>
    Number(args.find((arg) => arg.startsWith(`--${name}=`))?.split("=")[1] ?? fallback);
  const options: Options = {
    seconds: option("seconds", 8),
    connections: option("connections", 16),
    samples: option("samples", 200),
    exportRows: option("export-rows", 100_000),
  };
  const only = args.find((arg) => arg.startsWith("--only="))?.split("=")[1];
  const model = await startModelProcess();
  const rows: Array<Record<string, string | number>> = [];
  const exports: Array<Record<string, string | number>> = [];
  try {
    for await (const bench of benchDatabases()) {
      if (only && !bench.label.startsWith(only)) {
        await bench.dispose();
        continue;
      }
      const app = await startTestApp({
        database: bench.database,
        env: { OPENAI_API_KEY: "sk-bench", OPENAI_BASE_URL: model.url },
      });
      try {
        const progress = (what: string) => process.stderr.write(`[${bench.label}] ${what}\n`);
        const org = await app.createOrganization("Bench");
        progress("ingesting the knowledge document");
        const { agentId, chunks } = await setUp(app, org);
        // The export runs first, so the RSS it measures is not hidden by the load test's peak.
        const exportAgent = (
          await app.api.inject({
            method: "POST",
            url: "/api/agents",
            headers: org.auth,
            payload: { name: "Export" },
          })
        ).json().id as string;
        progress(`${chunks} chunks; exporting ${options.exportRows} messages`);
        exports.push({
          database: bench.label,
          ...(await measureExport(app, org, exportAgent, options.exportRows)),
          "load avg": loadavg()[0]!.toFixed(1),
        });
        progress(`export: ${JSON.stringify(exports.at(-1))}; measuring queries`);
        for (const [id, knowledge] of [
          [agentId, `${chunks} chunks`],
          [exportAgent, "none"],
        ] as const) {
          rows.push({
            database: bench.label,
            datastore: knowledge,
            ...(await measureQueries(app, org, id, model.url, options)),
            "load avg": loadavg()[0]!.toFixed(1),
          });
          progress(`queries: ${JSON.stringify(rows.at(-1))}`);
        }
      } finally {
        await app.close();
        await bench.dispose();
      }
    }
  } finally {
    model.process.kill();
  }
  process.stdout.write(
    `\nQueries (${options.connections} connections for ${options.seconds} s; overhead from ${options.samples} sequential requests)\n\n`,
  );
  process.stdout.write(`${formatTable(rows)}\n\nExport\n\n${formatTable(exports)}\n`);
}
