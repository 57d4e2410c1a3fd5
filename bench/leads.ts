import type { AddressInfo } from "node:net";
import { sql } from "drizzle-orm";
import Fastify from "fastify";
import { pino } from "pino";
import { createRuntime } from "../src/app/runtime.ts";
import { parseConfig } from "../src/config/index.ts";
import type { Database } from "../src/db/client.ts";
import { newId } from "../src/lib/ids.ts";
import { createLogger } from "../src/lib/logger.ts";
import { benchDatabases } from "./lib/databases.ts";
import { formatTable, type LoadResult, runLoad } from "./lib/load.ts";

const CONNECTIONS = 32;
const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 8_000);
const LEAD = JSON.stringify({
  name: "Bench {{i}}",
  email: "bench{{i}}@example.com",
  phone: "+1 555 010 2030",
  company: "Acme",
  score: 420,
});

/** The baseline: Fastify with one handler doing the same INSERT through the same driver. */
async function startBareServer(database: Database) {
  const app = Fastify({ logger: false });
  app.post("/api/leads", async (request, reply) => {
    const body = request.body as Record<string, string | number>;
    const id = newId();
    await database.db.execute(
      sql`insert into leads (id, name, email, phone, company, score)
          values (${id}, ${body.name}, ${body.email}, ${body.phone}, ${body.company}, ${body.score})`,
    );
    reply.code(201);
    return { success: true, id };
  });
  await app.listen({ host: "127.0.0.1", port: 0 });
  return {
    url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`,
    close: () => app.close(),
  };
}

async function startAgentdesk(database: Database) {
  const config = parseConfig({
    LEAD_RATE_LIMIT_PER_MINUTE: "1000000",
    BOOTSTRAP_DEFAULT_ORG: "false",
  });
  const runtime = await createRuntime({
    config,
    // Logging as in production (info, JSON, SonicBoom's asynchronous writes), into /dev/null.
    logger: createLogger("info", "json", pino.destination({ dest: "/dev/null", sync: false })),
    role: "api",
    database,
  });
  await runtime.site!.listen({ host: "127.0.0.1", port: 0 });
  return {
    url: `http://127.0.0.1:${(runtime.site!.server.address() as AddressInfo).port}`,
    close: () => runtime.close(),
  };
}

const load = (base: string) =>
  runLoad({
    url: `${base}/api/leads`,
    method: "POST",
    bodyTemplate: LEAD,
    connections: CONNECTIONS,
    durationMs: DURATION_MS,
  });

function row(label: string, subject: string, result: LoadResult) {
  return {
    database: label,
    server: subject,
    "leads/s": result.perSecond.toFixed(0),
    "p50 ms": result.p50Ms.toFixed(2),
    "p99 ms": result.p99Ms.toFixed(2),
    "non-201": result.requests - (result.statuses["201"] ?? 0) + result.errors,
  };
}

export async function run(): Promise<void> {
  const rows = [];
  for await (const { label, database, dispose } of benchDatabases()) {
    const bare = await startBareServer(database);
    const full = await startAgentdesk(database);
    await load(bare.url);
    await load(full.url);
    const results = { bare: [] as LoadResult[], full: [] as LoadResult[] };
    for (let round = 0; round < 2; round += 1) {
      results.bare.push(await load(bare.url));
      results.full.push(await load(full.url));
    }
    const best = (list: LoadResult[]) => list.reduce((a, b) => (a.perSecond > b.perSecond ? a : b));
    const bareBest = best(results.bare);
    const fullBest = best(results.full);
    rows.push(row(label, "bare Fastify + INSERT", bareBest));
    rows.push({
      ...row(label, "agentdesk POST /api/leads", fullBest),
      ratio: (fullBest.perSecond / bareBest.perSecond).toFixed(2),
    });
    await Promise.all([bare.close(), full.close()]);
    await dispose();
  }
  const normalized = rows.map((entry) => ({ ratio: "", ...entry }));
  process.stdout.write(
    `Lead capture over HTTP on 127.0.0.1, ${CONNECTIONS} connections, ${DURATION_MS / 1000} s per run, best of 2; agentdesk logs at info (JSON to /dev/null)\n`,
  );
  process.stdout.write(`${formatTable(normalized)}\n`);
  process.exit(0);
}
