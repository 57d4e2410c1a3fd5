// Open-loop HTTP sender run inside a worker thread by bench/lib/open-loop.ts (plain JS: workers
// skip tsx). Request i is due at start + i * intervalMs whatever became of the earlier ones, and
// goes to every target at once; its latency counts from when it was due, so a sender that fell
// behind (or a full connection pool) shows up as latency instead of hiding it.

import { setTimeout as sleep } from "node:timers/promises";
import { parentPort, workerData } from "node:worker_threads";
import { Pool } from "undici";

const { targets, path, headers, bodies, bodyHeaders, intervalMs, connections } = workerData;
const pools = targets.map((origin) => new Pool(origin, { connections, pipelining: 1 }));
const count = bodies.length;
// Per request and target: status (0 = no answer), latency from the due time, wall clock at the end.
const statuses = new Int32Array(count * targets.length);
const latencies = new Float64Array(count * targets.length);
const answeredAt = new Float64Array(count * targets.length);
let maxLagMs = 0;
const inFlight = [];

async function send(index, target, due) {
  const slot = index * targets.length + target;
  try {
    const response = await pools[target].request({
      path,
      method: "POST",
      headers: { "content-type": "application/json", ...headers, ...bodyHeaders?.[index] },
      body: bodies[index],
    });
    await response.body.dump();
    statuses[slot] = response.statusCode;
  } catch {
    statuses[slot] = 0;
  }
  latencies[slot] = performance.now() - due;
  answeredAt[slot] = Date.now();
}

const start = performance.now() + 100;
const startedAt = Date.now() + 100;
for (let index = 0; index < count; index += 1) {
  const due = start + index * intervalMs;
  const wait = due - performance.now();
  if (wait > 1) await sleep(wait);
  maxLagMs = Math.max(maxLagMs, performance.now() - due);
  for (let target = 0; target < targets.length; target += 1) {
    inFlight.push(send(index, target, due));
  }
}
await Promise.all(inFlight);
await Promise.all(pools.map((pool) => pool.close()));
parentPort.postMessage({ startedAt, statuses, latencies, answeredAt, maxLagMs });
