import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { inArray } from "drizzle-orm";
import { webhookWindows } from "../src/db/schema/index.ts";
import { startFakeOpenAI } from "../test/fakes/openai-server.ts";
import { ADMIN_TOKEN, startTestApp, type TestApp } from "../test/harness/app.ts";
import { benchDatabases } from "./lib/databases.ts";
import { formatTable } from "./lib/load.ts";

/**
 * npm run bench -- webhooks [--burst=300] [--rate=10] [--seconds=10] [--window-ms=1000]
 *
 * Conversational mode end to end on 127.0.0.1 (query → batching window → model → webhook), with
 * a zero-latency fake OpenAI server and a local receiver that answers 200 at once, on PGlite and
 * on PostgreSQL (BENCH_DATABASE_URL or TEST_DATABASE_URL):
 * - sustained deliveries per second: an API process without workers queues a burst of
 *   conversations, then one worker process drains all their closed windows (answer, store,
 *   charge, deliver); the rate is measured between the first and the last delivery received;
 * - the delay between a window's close (its deadline, database clock) and the receiver getting
 *   its delivery, p50 and p99, under a steady rate of new conversations.
 */
type Options = { burst: number; rate: number; seconds: number; windowMs: number };

function parseOptions(args: string[]): Options {
  const value = (name: string, fallback: number) => {
    const found = args.find((arg) => arg.startsWith(`--${name}=`));
    return found ? Number(found.split("=")[1]) : fallback;
  };
  return {
    burst: value("burst", 300),
    rate: value("rate", 10),
    seconds: value("seconds", 10),
    windowMs: value("window-ms", 1_000),
  };
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

/** A receiver that answers 200 at once and notes when each conversation's delivery arrived. */
async function startTimingReceiver() {
  const arrivals = new Map<string, number>();
  let waiter: (() => void) | null = null;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const at = Date.now();
      if (request.method === "POST") {
        const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as {
          conversationId: string;
        };
        if (!arrivals.has(body.conversationId)) arrivals.set(body.conversationId, at);
        waiter?.();
      }
      response.end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    arrivals,
    async waitFor(ids: string[], timeoutMs: number) {
      const deadline = Date.now() + timeoutMs;
      while (ids.some((id) => !arrivals.has(id)) && Date.now() < deadline) {
        await new Promise<void>((resolve) => {
          waiter = resolve;
          setTimeout(resolve, 200);
        });
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function setUp(app: TestApp) {
  const org = await app.createOrganization("Bench");
  await app.api.inject({
    method: "POST",
    url: `/api/admin/organizations/${org.id}/credits`,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    payload: { amount: 1_000_000 },
  });
  const agent = await app.api.inject({
    method: "POST",
    url: "/api/agents",
    headers: org.auth,
    payload: { name: "Bench", modelName: "gpt_4o_mini", useConversationalMode: true },
  });
  return { org, agentId: agent.json().id as string };
}

/** Sends one message in a new conversation; returns its conversation id. */
async function send(
  base: string,
  authorization: string,
  agentId: string,
  webhookUrl: string,
  n: number,
) {
  const response = await fetch(`${base}/api/agents/${agentId}/query`, {
    method: "POST",
    headers: { authorization, "content-type": "application/json" },
    body: JSON.stringify({ query: `Question number ${n}?`, webhookUrl }),
  });
  if (response.status !== 200)
    throw new Error(`query: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { conversationId: string }).conversationId;
}

async function deadlinesOf(app: TestApp, conversationIds: string[]) {
  const rows = await app.database.db
    .select({ conversationId: webhookWindows.conversationId, deadline: webhookWindows.deadline })
    .from(webhookWindows)
    .where(inArray(webhookWindows.conversationId, conversationIds));
  return new Map(rows.map((row) => [row.conversationId, row.deadline.getTime()]));
}

export async function run(args: string[]): Promise<void> {
  const options = parseOptions(args);
  const fake = await startFakeOpenAI({
    apiKey: "sk-bench",
    defaultChat: { text: "Thanks, noted." },
  });
  const env = {
    OPENAI_API_KEY: "sk-bench",
    OPENAI_BASE_URL: fake.url,
    WEBHOOK_BATCH_DELAY_MS: String(options.windowMs),
  };
  const rows: Array<Record<string, string | number>> = [];
  for await (const { label, database, dispose } of benchDatabases()) {
    const receiver = await startTimingReceiver();

    // Backlog: an API process without workers takes the burst; a worker process then drains
    // every window at once, so the rate is the worker's, not the rate messages came in.
    const apiOnly = await startTestApp({ database, env, role: "api" });
    const { org, agentId } = await setUp(apiOnly);
    const authorization = org.auth.authorization;
    const apiBase = await apiOnly.listen("api");
    const burstIds: string[] = [];
    let next = 0;
    const sendStarted = Date.now();
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (next < options.burst) {
          const n = next++;
          burstIds.push(await send(apiBase, authorization, agentId, receiver.url, n));
        }
      }),
    );
    const queuedPerSecond = options.burst / ((Date.now() - sendStarted) / 1000);
    await new Promise((resolve) => setTimeout(resolve, options.windowMs));
    await apiOnly.close();

    const app = await startTestApp({ database, env });
    await receiver.waitFor(burstIds, 600_000);
    const arrivals = burstIds
      .map((id) => receiver.arrivals.get(id))
      .filter((at) => at !== undefined);
    const drainSeconds = (Math.max(...arrivals) - Math.min(...arrivals)) / 1000;

    // Steady rate: the delay a single conversation sees between its window closing and delivery.
    const base = await app.listen("api");
    const steadyIds: string[] = [];
    const total = Math.round(options.rate * options.seconds);
    const started = Date.now();
    const sends: Array<Promise<void>> = [];
    for (let n = 0; n < total; n += 1) {
      const due = started + (n * 1000) / options.rate;
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - Date.now())));
      sends.push(
        send(base, authorization, agentId, receiver.url, n).then((id) => void steadyIds.push(id)),
      );
    }
    await Promise.all(sends);
    await receiver.waitFor(steadyIds, 600_000);
    const steadyDeadlines = await deadlinesOf(app, steadyIds);
    const delays = steadyIds
      .filter((id) => receiver.arrivals.has(id))
      .map((id) => receiver.arrivals.get(id)! - steadyDeadlines.get(id)!)
      .sort((a, b) => a - b);

    rows.push({
      database: label,
      "queued/s": queuedPerSecond.toFixed(0),
      backlog: `${arrivals.length}/${options.burst}`,
      "deliveries/s": ((arrivals.length - 1) / drainSeconds).toFixed(1),
      [`steady ${options.rate}/s`]: delays.length,
      "close→delivery p50 ms": percentile(delays, 50).toFixed(0),
      "p99 ms": percentile(delays, 99).toFixed(0),
      "max ms": (delays.at(-1) ?? 0).toFixed(0),
    });
    await app.close();
    await receiver.close();
    // pg-boss ends its pool just after stop() resolves; dropping the database first would kill
    // its idle connections, whose error nobody listens to any more.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    await dispose();
  }
  await fake.close();
  process.stdout.write(
    `Conversational mode on 127.0.0.1: query → ${options.windowMs} ms window → zero-latency fake model → webhook receiver answering 200\n`,
  );
  process.stdout.write(`${formatTable(rows)}\n`);
  process.exit(0);
}
