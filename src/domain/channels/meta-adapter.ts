import { z } from "zod";
import { randomToken } from "../../lib/secrets.ts";
import {
  type ChannelAdapter,
  type ChannelSettings,
  InboundFormatError,
  type InboundMessage,
  PlatformError,
} from "./channel-adapter.ts";
import {
  callGraph,
  hubSignatureValid,
  hubVerification,
  META_REPLY_WINDOW_MS,
} from "./meta-graph.ts";

/** Messenger's limit of one text message. */
const MESSENGER_MAX_CHARS = 2_000;
/** Instagram's, lower than Messenger's on the same Send API. */
const INSTAGRAM_MAX_CHARS = 1_000;

type Platform = "messenger" | "instagram";

/**
 * https://developers.facebook.com/docs/messenger-platform/webhooks, what we read: the `messages`
 * field of a page (`object: "page"`) or of the Instagram account linked to it (`"instagram"`).
 * Deliveries, reads, postbacks, reactions and the rest are entries without `message`.
 */
const notificationSchema = z.object({
  object: z.string(),
  entry: z.array(
    z.object({
      id: z.string(),
      messaging: z
        .array(
          z.object({
            sender: z.object({ id: z.string() }).optional(),
            recipient: z.object({ id: z.string() }).optional(),
            timestamp: z.number().optional(),
            message: z
              .object({
                mid: z.string(),
                text: z.string().optional(),
                is_echo: z.boolean().optional(),
                is_deleted: z.boolean().optional(),
              })
              .optional(),
          }),
        )
        .optional(),
    }),
  ),
});

/** The account of this channel that the entries of a notification must be addressed to. */
function accountOf(object: string, settings: ChannelSettings): [Platform, string | undefined] {
  if (object === "page") return ["messenger", settings.pageId];
  if (object === "instagram") return ["instagram", settings.instagramAccountId];
  return ["messenger", undefined];
}

/**
 * Messenger and Instagram through one Facebook page: Meta's webhook (GET verification, signed
 * POSTs) and the page's Send API, within the 24-hour standard messaging window.
 */
export const metaAdapter: ChannelAdapter = {
  type: "meta",
  configSchema: z.object({
    pageId: z
      .string()
      .trim()
      .regex(/^\d{1,30}$/, "must be the Facebook page's id (digits)"),
    pageAccessToken: z.string().trim().min(1).max(1_000),
    appSecret: z.string().trim().min(1).max(200),
    verifyToken: z.string().trim().min(1).max(200).optional(),
  }) as z.ZodType<ChannelSettings>,
  secretFields: ["pageAccessToken", "appSecret"],
  maxParts: 10,
  maxChars: MESSENGER_MAX_CHARS,
  maxCharsTo: (to) => (to.platform === "instagram" ? INSTAGRAM_MAX_CHARS : MESSENGER_MAX_CHARS),
  replyWindowMs: META_REPLY_WINDOW_MS,

  // The page token is checked by reading the page (and the Instagram account linked to it, whose
  // messages come as entries of that account), then the page is subscribed to the app, which
  // makes Meta deliver the page's messages to the app's webhook.
  async connect(context, { settings }) {
    const page = await callGraph(
      context,
      settings.pageAccessToken,
      "Meta page lookup",
      `${settings.pageId}?fields=id,name,instagram_business_account`,
    );
    await callGraph(
      context,
      settings.pageAccessToken,
      "Meta page subscription",
      `${settings.pageId}/subscribed_apps`,
      { method: "POST", json: { subscribed_fields: ["messages"] } },
    );
    const instagram = (page.instagram_business_account as { id?: unknown } | undefined)?.id;
    return {
      ...settings,
      verifyToken: settings.verifyToken ?? randomToken(24),
      ...(typeof page.name === "string" ? { pageName: page.name } : {}),
      ...(typeof instagram === "string" ? { instagramAccountId: instagram } : {}),
    };
  },

  async disconnect(context, { settings }) {
    await callGraph(
      context,
      settings.pageAccessToken,
      "Meta page unsubscription",
      `${settings.pageId}/subscribed_apps`,
      { method: "DELETE" },
    );
  },

  verify(request, { settings }) {
    return hubSignatureValid(request, settings.appSecret);
  },

  read(request, { settings }) {
    if (request.method === "GET") return hubVerification(request.query, settings.verifyToken);
    let notification: z.infer<typeof notificationSchema>;
    try {
      notification = notificationSchema.parse(JSON.parse(request.rawBody.toString("utf8")));
    } catch {
      throw new InboundFormatError("The body is not a Messenger or Instagram webhook notification");
    }
    const [platform, account] = accountOf(notification.object, settings);
    const messages: InboundMessage[] = [];
    for (const entry of notification.entry) {
      // One app serves many pages: only this channel's page (or its Instagram account) is ours.
      if (account === undefined || entry.id !== account) continue;
      for (const event of entry.messaging ?? []) {
        const { message, sender } = event;
        // Echoes are what the page sent (our answers included); deliveries and reads have none.
        if (!message || !sender || message.is_echo || message.is_deleted) continue;
        if (sender.id === account) continue;
        const text = message.text ?? "";
        if (text.trim() === "") continue;
        const threadKey = `${platform}:${sender.id}`;
        messages.push({
          platformMessageId: message.mid,
          threadKey,
          replyTo: { id: sender.id, platform },
          sender: { externalId: threadKey },
          payload: { text },
          sentAt: new Date(event.timestamp ?? Date.now()),
        });
      }
    }
    return { kind: "events", messages, statuses: [] };
  },

  async send(context, { settings }, to, text) {
    const sent = await callGraph(
      context,
      settings.pageAccessToken,
      "Meta send",
      `${settings.pageId}/messages`,
      {
        method: "POST",
        json: { recipient: { id: to.id }, messaging_type: "RESPONSE", message: { text } },
      },
    );
    if (typeof sent.message_id !== "string") {
      throw new PlatformError("Meta send: no message id in the answer", { retryable: false });
    }
    return { platformMessageId: sent.message_id };
  },

  async typing(context, { settings }, to) {
    await callGraph(
      context,
      settings.pageAccessToken,
      "Meta typing",
      `${settings.pageId}/messages`,
      {
        method: "POST",
        json: { recipient: { id: to.id }, sender_action: "typing_on" },
      },
    );
  },
};
