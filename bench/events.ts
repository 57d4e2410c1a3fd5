import { type ChildProcess, fork } from "node:child_process";
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import type { AddressInfo } from "node:net";
import os from "node:os";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { createParser } from "eventsource-parser";
import { pino } from "pino";
import { createRuntime, type Runtime } from "../src/app/runtime.ts";
import { parseConfig } from "../src/config/index.ts";
import { openDatabase } from "../src/db/client.ts";
import { type BenchDatabase, benchDatabases, freshPostgres } from "./lib/databases.ts";
import { formatTable } from "./lib/load.ts";
import { buildIfStale, type RunningService, startService } from "./lib/service-processes.ts";

/**
 * npm run bench -- events [events] [connections]
 * Live events (docs/handoff.md) on one API process listening on 127.0.0.1:
 * - latency: `events` (default 200) events published one after another through the publisher,
 *   each timed from the call to publish until its frame is parsed by a client of GET /api/events
 *   (fetch, in this process);
 * - memory: the process's RSS (and V8 heap in use) before and after `connections` (default
 *   1,000) idle streams of GET /api/events, opened from a child process so their client side is
 *   not counted. Run with NODE_OPTIONS=--expose-gc for readings after a full collection.
 */
const SETTLE_MS = 3_000;
const REPLY_WARM_UP = 20;
const BENCH_ADMIN_TOKEN = `bench-admin-${randomBytes(8).toString("hex")}`;

/** A full collection before a reading, when node runs with --expose-gc (NODE_OPTIONS). */
const collect = () => (globalThis as { gc?: () => void }).gc?.();

const percentile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
const megabytes = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

async function start(
  database: Parameters<typeof createRuntime>[0]["database"],
  env: Record<string, string> = {},
) {
  const runtime = await createRuntime({
    config: parseConfig({
      LOG_LEVEL: "silent",
      BOOTSTRAP_DEFAULT_ORG: "false",
      ADMIN_TOKEN: BENCH_ADMIN_TOKEN,
      ...env,
    }),
    logger: pino({ level: "silent" }),
    role: "api",
    ...(database ? { database } : {}),
  });
  await runtime.api!.listen({ host: "127.0.0.1", port: 0 });
  const { port } = runtime.api!.server.address() as AddressInfo;
  const base = `http://127.0.0.1:${port}`;
  return { runtime, base, url: `${base}/api/events` };
}

/** Publish-to-frame times of `count` events, one at a time. */
async function latencies(runtime: Runtime, url: string, count: number) {
  const { organization, apiKey } = await runtime.services.organizations.createOrganization({
    name: "Bench",
  });
  const controller = new AbortController();
  const response = await fetch(url, {
    headers: { authorization: `Bearer ${apiKey}` },
    signal: controller.signal,
  });
  const arrived = new Map<string, () => void>();
  const parser = createParser({
    onEvent: (event) => arrived.get(JSON.parse(event.data).marker)?.(),
  });
  const reading = (async () => {
    const decoder = new TextDecoder();
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        parser.feed(decoder.decode(chunk, { stream: true }));
      }
    } catch {
      // Aborted at the end.
    }
  })();
  const samples: number[] = [];
  for (let index = 0; index < count + 20; index += 1) {
    const marker = `event-${index}`;
    const frame = new Promise<void>((resolve) => arrived.set(marker, resolve));
    const started = performance.now();
    await runtime.services.events.publish({
      organizationId: organization.id,
      agentId: "bench-agent",
      conversationId: "bench-conversation",
      name: "message.created",
      data: { marker, message: { id: marker, from: "agent", text: "Hello from a person" } },
    });
    await frame;
    // The first 20 warm the statements up.
    if (index >= 20) samples.push(performance.now() - started);
    arrived.delete(marker);
  }
  controller.abort();
  await reading;
  samples.sort((a, b) => a - b);
  return { p50: percentile(samples, 0.5), p95: percentile(samples, 0.95), apiKey };
}

/** The server's RSS growth with `count` idle streams open. */
async function idleMemory(url: string, apiKey: string, count: number) {
  await sleep(SETTLE_MS);
  collect();
  const before = process.memoryUsage();
  const clients: ChildProcess = fork(
    new URL("./lib/idle-sse-clients.mjs", import.meta.url),
    [url, `Bearer ${apiKey}`, String(count)],
    { execArgv: [] },
  );
  const [message] = await Promise.race([
    once(clients, "message"),
    once(clients, "exit").then(() => {
      throw new Error("the idle clients exited before they were all connected");
    }),
  ]);
  if (message !== "ready") throw new Error(`idle clients: ${String(message)}`);
  await sleep(SETTLE_MS);
  collect();
  const after = process.memoryUsage();
  clients.send("close");
  await once(clients, "exit");
  return { before, after };
}

/** A JSON request that must answer `status`; its parsed body. */
async function call(
  url: string,
  authorization: string | null,
  body: unknown,
  status: number,
): Promise<Record<string, unknown>> {
  const response = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      ...(authorization ? { authorization } : {}),
    },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status !== status) throw new Error(`POST ${url}: ${response.status} ${text}`);
  return JSON.parse(text) as Record<string, unknown>;
}

/** An organization (through the admin API), a public agent and a visitor's conversation. */
async function visitorConversation(base: string) {
  const created = await call(
    `${base}/api/admin/organizations`,
    `Bearer ${BENCH_ADMIN_TOKEN}`,
    { name: "Bench" },
    201,
  );
  const authorization = `Bearer ${created.apiKey as string}`;
  const agent = await call(
    `${base}/api/agents`,
    authorization,
    { name: "Support", modelName: "gpt_4o_mini", visibility: "public" },
    201,
  );
  const agentId = agent.id as string;
  const visitorId = `visitor-${randomBytes(6).toString("hex")}`;
  const chat = await call(
    `${base}/api/public/agents/${agentId}/chat`,
    null,
    { query: "Can a person help me?", visitorId },
    200,
  );
  return { authorization, agentId, visitorId, conversationId: chat.conversationId as string };
}

/**
 * A GET event stream read with fetch and eventsource-parser, as a browser would: `arrived` is
 * called with the text of each message.created frame when it has been parsed.
 */
async function openStream(
  url: string,
  headers: Record<string, string>,
  arrived: (text: string) => void,
) {
  const controller = new AbortController();
  const response = await fetch(url, { headers, signal: controller.signal });
  if (response.status !== 200) throw new Error(`GET ${url}: ${response.status}`);
  const parser = createParser({
    onEvent(event) {
      if (event.event !== "message.created") return;
      arrived((JSON.parse(event.data) as { message: { text: string } }).message.text);
    },
  });
  const reading = (async () => {
    const decoder = new TextDecoder();
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        parser.feed(decoder.decode(chunk, { stream: true }));
      }
    } catch {
      // Aborted at the end.
    }
  })();
  return {
    async close() {
      controller.abort();
      await reading;
    },
  };
}

type ReplyTimings = { post: number[]; widget: number[]; dashboard: number[] };

/**
 * `count` operator replies posted to `writeBase` one after another, each timed from just before
 * its POST until its frame has been parsed on the widget stream and on GET /api/events, both
 * opened on `readBase`.
 */
async function replyLatencies(
  writeBase: string,
  readBase: string,
  count: number,
): Promise<ReplyTimings> {
  const { authorization, agentId, visitorId, conversationId } =
    await visitorConversation(writeBase);
  /** Per reply text, what each stream calls when its frame is parsed. */
  const waiting = {
    widget: new Map<string, () => void>(),
    dashboard: new Map<string, () => void>(),
  };
  const widget = await openStream(
    `${readBase}/api/public/agents/${agentId}/conversations/${conversationId}/events?visitorId=${visitorId}`,
    {},
    (text) => waiting.widget.get(text)?.(),
  );
  const dashboard = await openStream(`${readBase}/api/events`, { authorization }, (text) =>
    waiting.dashboard.get(text)?.(),
  );
  const frame = (stream: Map<string, () => void>, text: string) =>
    new Promise<number>((resolve) => stream.set(text, () => resolve(performance.now())));
  const timings: ReplyTimings = { post: [], widget: [], dashboard: [] };
  for (let index = 0; index < count + REPLY_WARM_UP; index += 1) {
    const text = `Hi, Jane here (${index})`;
    const frames = Promise.all([frame(waiting.widget, text), frame(waiting.dashboard, text)]);
    const started = performance.now();
    await call(
      `${writeBase}/api/conversations/${conversationId}/messages`,
      authorization,
      { text },
      201,
    );
    const posted = performance.now();
    const [widgetAt, dashboardAt] = await frames;
    waiting.widget.delete(text);
    waiting.dashboard.delete(text);
    // The first ones warm the statements and the streams up.
    if (index < REPLY_WARM_UP) continue;
    timings.post.push(posted - started);
    timings.widget.push(widgetAt - started);
    timings.dashboard.push(dashboardAt - started);
  }
  await Promise.all([widget.close(), dashboard.close()]);
  return timings;
}

/** Two `agentdesk serve --role api` processes on a fresh database of the PostgreSQL server. */
async function twoApiProcesses() {
  const serverUrl =
    process.env.BENCH_DATABASE_URL ??
    process.env.TEST_DATABASE_URL ??
    "postgres://postgres@127.0.0.1:5432/test";
  buildIfStale();
  const fresh = await freshPostgres(serverUrl);
  const env = {
    DATABASE_URL: fresh.url,
    ADMIN_TOKEN: BENCH_ADMIN_TOKEN,
    BOOTSTRAP_DEFAULT_ORG: "false",
    // Not the warning of each stream the bench closes at its end.
    LOG_LEVEL: "error",
  };
  const services: RunningService[] = [];
  try {
    services.push(await startService("api", env));
    services.push(await startService("api", env));
  } catch (error) {
    await Promise.all(services.map((service) => service.stop()));
    await fresh.dispose();
    throw error;
  }
  return {
    bases: services.map((service) => service.apiUrl!),
    async close() {
      await Promise.all(services.map((service) => service.stop()));
      await fresh.dispose();
    },
  };
}

const loadAverage = () =>
  os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(" ");

/** `events reply [count]`: operator replies on PGlite (one process), then PostgreSQL (two). */
async function replies(count: number): Promise<void> {
  const rows: Array<Record<string, string | number>> = [];
  const row = (setup: string, load: string, timings: ReplyTimings) => {
    const [post, widget, dashboard] = [timings.post, timings.widget, timings.dashboard].map(
      (samples) => samples.sort((a, b) => a - b),
    ) as [number[], number[], number[]];
    const ms = (sorted: number[], q: number) => percentile(sorted, q).toFixed(1);
    rows.push({
      setup,
      replies: count,
      "POST→201 p50 ms": ms(post, 0.5),
      "widget p50 ms": ms(widget, 0.5),
      "widget p95 ms": ms(widget, 0.95),
      "widget p99 ms": ms(widget, 0.99),
      "/api/events p50 ms": ms(dashboard, 0.5),
      "/api/events p95 ms": ms(dashboard, 0.95),
      "/api/events p99 ms": ms(dashboard, 0.99),
      "load avg start → end": load,
    });
  };

  let startLoad = loadAverage();
  const pglite = await openDatabase({ kind: "pglite", dataDir: null });
  const embedded = await start(pglite);
  const onPglite = await replyLatencies(embedded.base, embedded.base, count);
  await embedded.runtime.close();
  await pglite.close();
  row("PGlite in memory, one API process", `${startLoad} → ${loadAverage()}`, onPglite);

  startLoad = loadAverage();
  const processes = await twoApiProcesses();
  try {
    const [writeBase, readBase] = processes.bases as [string, string];
    const onPostgres = await replyLatencies(writeBase, readBase, count);
    row(
      "PostgreSQL, reply to API 1, streams on API 2",
      `${startLoad} → ${loadAverage()}`,
      onPostgres,
    );
  } finally {
    await processes.close();
  }
  process.stdout.write(`${formatTable(rows)}\n`);
}

/**
 * What idle streams' pings cost the event loop: `connections` idle streams of GET /api/events
 * with a ping every second, and the server's event-loop delay (perf_hooks) over `seconds`:
 * pings sent in one burst show as a long delay once a second.
 */
async function pingStalls(connections: number, seconds: number) {
  const { database, dispose } = (await benchDatabases().next()).value as BenchDatabase;
  const { runtime, url } = await start(database, { SSE_PING_INTERVAL_MS: "1000" });
  const { apiKey } = await runtime.services.organizations.createOrganization({ name: "Bench" });
  const clients: ChildProcess = fork(
    new URL("./lib/idle-sse-clients.mjs", import.meta.url),
    [url, `Bearer ${apiKey}`, String(connections)],
    { execArgv: [] },
  );
  const [message] = await once(clients, "message");
  if (message !== "ready") throw new Error(`idle clients: ${String(message)}`);
  // Streams opened over a moment, as after a restart; then the loop is watched.
  await sleep(2_000);
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  await sleep(seconds * 1_000);
  delay.disable();
  clients.send("close");
  await once(clients, "exit");
  await runtime.close();
  await dispose();
  const ms = (nanoseconds: number) => (nanoseconds / 1e6).toFixed(1);
  const row = {
    streams: connections,
    "ping interval ms": 1000,
    seconds,
    "loop delay p50 ms": ms(delay.percentile(50)),
    "p99 ms": ms(delay.percentile(99)),
    "max ms": ms(delay.max),
  };
  process.stdout.write(`${formatTable([row])}\n`);
}

export async function run(args: string[]): Promise<void> {
  const numbers = args.filter((arg) => /^\d+$/.test(arg)).map(Number);
  if (args[0] === "pings") return pingStalls(numbers[0] ?? 1_000, numbers[1] ?? 20);
  if (args[0] === "reply") {
    const [count = 200] = args.filter((arg) => /^\d+$/.test(arg)).map(Number);
    return replies(count);
  }
  const [count = 200, connections = 1_000] = args.filter((arg) => /^\d+$/.test(arg)).map(Number);
  const rows: Array<Record<string, string | number>> = [];
  for await (const { label, database, dispose } of benchDatabases()) {
    const { runtime, url } = await start(database);
    const timing = await latencies(runtime, url, count);
    const memory = await idleMemory(url, timing.apiKey, connections);
    rows.push({
      database: label,
      events: count,
      "publish→frame p50 ms": timing.p50.toFixed(2),
      "p95 ms": timing.p95.toFixed(2),
      streams: connections,
      "RSS before MB": megabytes(memory.before.rss),
      "RSS with streams MB": megabytes(memory.after.rss),
      "RSS growth MB": megabytes(memory.after.rss - memory.before.rss),
      "heap growth MB": megabytes(memory.after.heapUsed - memory.before.heapUsed),
    });
    await runtime.close();
    await dispose();
  }
  process.stdout.write(`${formatTable(rows)}\n`);
}
