// Load generator run inside a worker thread by bench/lib/load.ts (plain JS: workers skip tsx).
import { parentPort, workerData } from "node:worker_threads";
import { Pool } from "undici";

const { url, method, headers = {}, bodyTemplate, connections, durationMs } = workerData;
const target = new URL(url);
const pool = new Pool(target.origin, { connections, pipelining: 1 });
const latencies = [];
const statuses = {};
let errors = 0;
let counter = 0;
const deadline = Date.now() + durationMs;

async function client() {
  while (Date.now() < deadline) {
    counter += 1;
    const body = bodyTemplate ? bodyTemplate.replaceAll("{{i}}", String(counter)) : undefined;
    const started = performance.now();
    try {
      const response = await pool.request({
        path: target.pathname + target.search,
        method,
        headers: body ? { "content-type": "application/json", ...headers } : headers,
        body,
      });
      await response.body.dump();
      latencies.push(performance.now() - started);
      statuses[response.statusCode] = (statuses[response.statusCode] ?? 0) + 1;
    } catch {
      errors += 1;
    }
  }
}

await Promise.all(Array.from({ length: connections }, client));
await pool.close();
latencies.sort((a, b) => a - b);
const at = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
parentPort.postMessage({
  requests: latencies.length,
  perSecond: latencies.length / (durationMs / 1000),
  p50Ms: at(0.5),
  p99Ms: at(0.99),
  errors,
  statuses,
});
