import { randomBytes } from "node:crypto";

/**
 * Webhook notifications of the Messenger Platform as Meta posts them to an app's callback URL:
 * `object: "page"` for a Facebook page, `"instagram"` for the Instagram professional account
 * linked to it, each entry carrying `messaging` events.
 * https://developers.facebook.com/docs/messenger-platform/webhooks
 */
type Account = { object: "page" | "instagram"; accountId: string };

/** A message id as Meta writes them (`m_` then URL-safe base64). */
export const messengerMid = () => `m_${randomBytes(40).toString("base64url")}`;

function notification(account: Account, events: Array<Record<string, unknown>>) {
  const time = Date.now();
  return {
    object: account.object,
    entry: [{ id: account.accountId, time, messaging: events }],
  };
}

/** A person's text message to the page (or to its Instagram account). */
export function messengerTextWebhook(
  fields: Account & { senderId: string; mid: string; text: string; timestamp?: number },
) {
  return notification(fields, [
    {
      sender: { id: fields.senderId },
      recipient: { id: fields.accountId },
      timestamp: fields.timestamp ?? Date.now(),
      message: { mid: fields.mid, text: fields.text },
    },
  ]);
}

/** The echo of a message the page sent (to `recipientId`), as Meta reports every send. */
export function messengerEchoWebhook(
  fields: Account & { recipientId: string; mid: string; text: string; appId?: string },
) {
  return notification(fields, [
    {
      sender: { id: fields.accountId },
      recipient: { id: fields.recipientId },
      timestamp: Date.now(),
      message: {
        mid: fields.mid,
        is_echo: true,
        app_id: Number(fields.appId ?? "1517776481860111"),
        text: fields.text,
      },
    },
  ]);
}

/** The delivery report of messages the page sent. */
export function messengerDeliveryWebhook(fields: Account & { senderId: string; mids: string[] }) {
  return notification(fields, [
    {
      sender: { id: fields.senderId },
      recipient: { id: fields.accountId },
      delivery: { mids: fields.mids, watermark: Date.now() },
    },
  ]);
}

/** The person read the conversation up to now. */
export function messengerReadWebhook(fields: Account & { senderId: string }) {
  return notification(fields, [
    {
      sender: { id: fields.senderId },
      recipient: { id: fields.accountId },
      timestamp: Date.now(),
      read: { watermark: Date.now() },
    },
  ]);
}
