// Idle event-stream clients, run in a child process by bench/events.ts so that their sockets
// and buffers are not counted in the server's RSS (plain JS: forked without tsx).
import http from "node:http";

const [url, authorization, count] = process.argv.slice(2);
const agent = new http.Agent({ keepAlive: false, maxSockets: Number.POSITIVE_INFINITY });
const requests = [];

function open() {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { agent, headers: { authorization } }, (response) => {
      if (response.statusCode !== 200) reject(new Error(`status ${response.statusCode}`));
      response.resume();
      resolve();
    });
    request.on("error", reject);
    requests.push(request);
  });
}

// Opened in batches, as a crowd of browsers would arrive, without a burst of SYNs.
for (let opened = 0; opened < Number(count); opened += 100) {
  await Promise.all(Array.from({ length: Math.min(100, Number(count) - opened) }, open));
}
process.send?.("ready");
process.on("message", () => {
  for (const request of requests) request.destroy();
  process.exit(0);
});
