import { hmacSha256Hex } from "../../lib/secrets.ts";

/** `sha256=<hex HMAC-SHA256 of "timestamp.body">` (docs/contracts.md, "Webhooks"). */
function webhookSignature(secret: string, timestamp: string, body: string): string {
  return `sha256=${hmacSha256Hex(secret, `${timestamp}.${body}`)}`;
}

/**
 * The headers of one attempt. The delivery id is the same on every attempt, so a receiver can
 * drop duplicates; the timestamp (Unix seconds) is the attempt's, so a receiver can refuse
 * replays of old requests.
 */
export function webhookHeaders(input: {
  /** agent.response for an agent's answer; a subscription's event name otherwise. */
  event: string;
  deliveryId: string;
  body: string;
  now: Date;
  signingSecret: string | undefined;
}): Record<string, string> {
  const timestamp = String(Math.floor(input.now.getTime() / 1000));
  const headers: Record<string, string> = {
    "content-type": "application/json",
    "x-service-event": input.event,
    "x-service-delivery": input.deliveryId,
    "x-service-timestamp": timestamp,
  };
  if (input.signingSecret) {
    headers["x-service-signature"] = webhookSignature(input.signingSecret, timestamp, input.body);
  }
  return headers;
}
