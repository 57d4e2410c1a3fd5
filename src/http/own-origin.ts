import type { FastifyRequest } from "fastify";

/**
 * Whether an Origin (or Referer) names this service itself: PUBLIC_URL's origin, or the host the
 * request was sent to. Pages we serve (the console, the chat page) are ours on either.
 */
export function isOwnOrigin(
  request: FastifyRequest,
  stated: string | undefined,
  publicOrigin: string,
): boolean {
  if (stated === undefined || !URL.canParse(stated)) return false;
  const origin = new URL(stated);
  const host = request.headers.host;
  return (
    origin.origin === publicOrigin ||
    (typeof host === "string" && origin.host === host.toLowerCase())
  );
}
