// A bare event-stream server for bench/perf-idle-streams.ts's control arm: it holds the idle
// streams the service would otherwise hold (200, the SSE headers, a `: ping` every interval), so
// that a run with the streams here costs the machine what holding them costs, minus the service.
// Plain JS: forked without tsx. Sends its port to the parent once listening.
import http from "node:http";

const pingIntervalMs = Number(process.argv[2] ?? 15_000);

const server = http.createServer((request, response) => {
  response.writeHead(200, {
    "content-type": "text/event-stream",
    "cache-control": "no-cache",
    connection: "keep-alive",
  });
  response.flushHeaders();
  const ping = setInterval(() => response.write(": ping\n\n"), pingIntervalMs);
  request.on("close", () => clearInterval(ping));
});

server.listen(0, "127.0.0.1", () => process.send?.(server.address().port));
process.on("message", () => process.exit(0));
