import { createHmac } from "node:crypto";

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
