import { createHmac, randomUUID } from "node:crypto";

/**
 * The `X-Hub-Signature-256` header Meta sends with every webhook: HMAC-SHA256 of the raw body
 * keyed with the app secret, in hex, prefixed "sha256=".
 * https://developers.facebook.com/docs/graph-api/webhooks/getting-started#validate-payloads
 */
export function metaSignature(appSecret: string, rawBody: string | Buffer): string {
  return `sha256=${createHmac("sha256", appSecret).update(rawBody).digest("hex")}`;
}

/**
 * The `X-Slack-Signature` header Slack sends (with `X-Slack-Request-Timestamp`): HMAC-SHA256 of
 * "v0:<timestamp>:<raw body>" keyed with the signing secret, in hex, prefixed "v0=".
 * https://api.slack.com/authentication/verifying-requests-from-slack
 */
export function slackSignature(
  signingSecret: string,
  timestampSeconds: number,
  rawBody: string | Buffer,
): string {
  const hmac = createHmac("sha256", signingSecret).update(`v0:${timestampSeconds}:`);
  return `v0=${hmac.update(rawBody).digest("hex")}`;
}

/**
 * A webhook body as Meta serializes it: JSON with every non-ASCII character escaped as \uXXXX
 * (lowercase hex), so a receiver that re-encodes the parsed JSON computes another signature.
 */
export function metaWebhookBody(payload: unknown): string {
  return JSON.stringify(payload).replace(
    /[\u0080-\uffff]/g,
    (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/**
 * The headers Chatwoot sends with an Agent Bot's (and a webhook's) events when the bot has a
 * secret: `X-Chatwoot-Timestamp` (Unix seconds) and `X-Chatwoot-Signature: sha256=<hex
 * HMAC-SHA256 of "<timestamp>.<raw body>" keyed with the secret>`, and `X-Chatwoot-Delivery`
 * (Chatwoot's Webhooks::Trigger, which AgentBots::WebhookJob calls with the bot's `secret`).
 */
export function chatwootSignatureHeaders(
  secret: string,
  timestampSeconds: number,
  rawBody: string | Buffer,
): Record<string, string> {
  const hmac = createHmac("sha256", secret).update(`${timestampSeconds}.`);
  return {
    "x-chatwoot-timestamp": String(timestampSeconds),
    "x-chatwoot-signature": `sha256=${hmac.update(rawBody).digest("hex")}`,
    "x-chatwoot-delivery": randomUUID(),
  };
}

/**
 * A body as Rails' `to_json` writes it: `<`, `>` and `&` escaped as \u003c, \u003e and \u0026,
 * so a receiver that re-encodes the parsed JSON computes another signature.
 */
export function chatwootWebhookBody(payload: unknown): string {
  return JSON.stringify(payload)
    .replaceAll("<", "\\u003c")
    .replaceAll(">", "\\u003e")
    .replaceAll("&", "\\u0026");
}
