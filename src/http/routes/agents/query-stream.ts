import type { FastifyReply, FastifyRequest } from "fastify";
import type { PreparedQuery } from "../../../domain/query/query-service.ts";
import { AppError } from "../../../lib/errors.ts";
import { openSseStream } from "../../sse.ts";

type Run<Response> = (options: {
  onText: (fragment: string) => Promise<void>;
  signal: AbortSignal;
}) => Promise<Response>;

function errorMessage(error: unknown): string {
  return error instanceof AppError ? error.message : "Internal server error";
}

/**
 * Streams an answer as the spec's events: `answer` fragments, one `endpoint_response` with the
 * full JSON, then `[DONE]`; a failure after the headers is `[ERROR] <message>`. A client that
 * disconnects aborts `run` through the signal (the service keeps the partial answer).
 */
export async function streamAnswer<Response>(
  request: FastifyRequest,
  reply: FastifyReply,
  pingIntervalMs: number,
  run: Run<Response>,
): Promise<void> {
  const stream = openSseStream(request, reply, { pingIntervalMs });
  try {
    const response = await run({
      onText: (fragment) => stream.event("answer", fragment),
      signal: stream.signal,
    });
    await stream.event("endpoint_response", JSON.stringify(response));
    await stream.data("[DONE]");
  } catch (error) {
    if (!(error instanceof AppError) || error.status >= 500) {
      request.log.error({ err: error }, "streamed query failed");
    }
    await stream.data(`[ERROR] ${errorMessage(error)}`);
  } finally {
    stream.end();
  }
}

/**
 * The reply to a prepared query as the client asked for it: the queued answer of a
 * conversational agent, the answer as JSON, or the answer streamed (`streaming: true`).
 */
export async function replyWithAnswer(
  request: FastifyRequest,
  reply: FastifyReply,
  pingIntervalMs: number,
  prepared: PreparedQuery,
  streaming: boolean | undefined,
) {
  if (prepared.kind === "queued") return prepared.response;
  if (!streaming) return prepared.run();
  await streamAnswer(request, reply, pingIntervalMs, prepared.run);
  return reply;
}
