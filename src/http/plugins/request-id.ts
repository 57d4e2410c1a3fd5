import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { FastifyInstance } from "fastify";

const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/**
 * Honours a caller's X-Request-Id when it is short and plain, so traces join across services.
 * Our own ids are UUIDs: cheap to make on every request, unlike the CUIDs of stored records.
 */
export function generateRequestId(request: IncomingMessage): string {
  const incoming = request.headers["x-request-id"];
  return typeof incoming === "string" && SAFE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

export function echoRequestId(app: FastifyInstance): void {
  // A callback hook: an async one costs a promise and a microtask turn on every response.
  app.addHook("onSend", (request, reply, payload, done) => {
    reply.header("x-request-id", request.id);
    done(null, payload);
  });
}
