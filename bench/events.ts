import { type ChildProcess, fork } from "node:child_process";
import { once } from "node:events";
import type { AddressInfo } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { createParser } from "eventsource-parser";
import { pino } from "pino";
import { createRuntime, type Runtime } from "../src/app/runtime.ts";
import { parseConfig } from "../src/config/index.ts";
import { benchDatabases } from "./lib/databases.ts";
import { formatTable } from "./lib/load.ts";

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

/** A full collection before a reading, when node runs with --expose-gc (NODE_OPTIONS). */
const collect = () => (globalThis as { gc?: () => void }).gc?.();

const percentile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
const megabytes = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

async function start(database: Parameters<typeof createRuntime>[0]["database"]) {
  const runtime = await createRuntime({
    config: parseConfig({ LOG_LEVEL: "silent", BOOTSTRAP_DEFAULT_ORG: "false" }),
    logger: pino({ level: "silent" }),
    role: "api",
    ...(database ? { database } : {}),
  });
  await runtime.api!.listen({ host: "127.0.0.1", port: 0 });
  const { port } = runtime.api!.server.address() as AddressInfo;
  return { runtime, url: `http://127.0.0.1:${port}/api/events` };
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

export async function run(args: string[]): Promise<void> {
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
