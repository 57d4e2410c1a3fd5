import { z } from "zod";
import { randomToken } from "../../lib/secrets.ts";
import {
  type ChannelAdapter,
  type ChannelSettings,
  InboundFormatError,
  type InboundMessage,
  type InboundStatus,
  type PlatformContext,
  PlatformError,
} from "./channel-adapter.ts";
import {
  callGraph,
  hubSignatureValid,
  hubVerification,
  META_REPLY_WINDOW_MS,
} from "./meta-graph.ts";
import { downloadFromPlatform } from "./platform-http.ts";

/** https://developers.facebook.com/docs/whatsapp/cloud-api/webhooks/components, what we read. */
const notificationSchema = z.object({
  object: z.string(),
  entry: z.array(
    z.object({
      changes: z.array(
        z.object({
          field: z.string().optional(),
          value: z.object({
            metadata: z.object({ phone_number_id: z.string() }).optional(),
            contacts: z
              .array(
                z.object({ wa_id: z.string(), profile: z.object({ name: z.string() }).optional() }),
              )
              .optional(),
            messages: z
              .array(
                z.object({
                  from: z.string(),
                  id: z.string(),
                  timestamp: z.string(),
                  type: z.string(),
                  text: z.object({ body: z.string() }).optional(),
                  audio: z.object({ id: z.string(), mime_type: z.string().optional() }).optional(),
                }),
              )
              .optional(),
            statuses: z
              .array(
                z.object({
                  id: z.string(),
                  status: z.string(),
                  errors: z
                    .array(
                      z.object({
                        code: z.number().optional(),
                        title: z.string().optional(),
                        message: z.string().optional(),
                        error_data: z.object({ details: z.string().optional() }).optional(),
                      }),
                    )
                    .optional(),
                }),
              )
              .optional(),
          }),
        }),
      ),
    }),
  ),
});

const STATUSES = new Set(["sent", "delivered", "read", "failed"]);

async function graph(
  context: PlatformContext,
  settings: ChannelSettings,
  what: string,
  path: string,
  json?: unknown,
): Promise<Record<string, unknown>> {
  return callGraph(context, settings.accessToken, what, path, json === undefined ? {} : { json });
}

/** A status callback's error as one line: "131047 Re-engagement message: …". */
function describeErrors(
  errors:
    | Array<{ code?: number; title?: string; message?: string; error_data?: { details?: string } }>
    | undefined,
) {
  const first = errors?.[0];
  if (!first) return undefined;
  const detail = first.error_data?.details ?? first.message;
  return [first.code, first.title].filter(Boolean).join(" ") + (detail ? `: ${detail}` : "");
}

export const whatsappAdapter: ChannelAdapter = {
  type: "whatsapp",
  configSchema: z.object({
    phoneNumberId: z
      .string()
      .trim()
      .regex(/^\d{1,30}$/, "must be the phone number's id (digits)"),
    accessToken: z.string().trim().min(1).max(1_000),
    appSecret: z.string().trim().min(1).max(200),
    verifyToken: z.string().trim().min(1).max(200).optional(),
  }) as z.ZodType<ChannelSettings>,
  secretFields: ["accessToken", "appSecret"],
  maxParts: 3,
  maxChars: 4_096,
  replyWindowMs: META_REPLY_WINDOW_MS,

  // Meta checks nothing until the first send (a bad token shows as the channel's lastError
  // then); the verify token the dashboard asks for is made here when the client gave none.
  async connect(_context, { settings }) {
    return { ...settings, verifyToken: settings.verifyToken ?? randomToken(24) };
  },

  // The webhook is the Meta app's, set in its dashboard: nothing to remove through the API.
  async disconnect() {},

  verify(request, { settings }) {
    return hubSignatureValid(request, settings.appSecret);
  },

  read(request, { settings }) {
    if (request.method === "GET") return hubVerification(request.query, settings.verifyToken);
    let notification: z.infer<typeof notificationSchema>;
    try {
      notification = notificationSchema.parse(JSON.parse(request.rawBody.toString("utf8")));
    } catch {
      throw new InboundFormatError("The body is not a WhatsApp webhook notification");
    }
    const messages: InboundMessage[] = [];
    const statuses: InboundStatus[] = [];
    for (const entry of notification.entry) {
      for (const { value } of entry.changes) {
        // One app may serve several numbers: only this channel's are ours.
        if (value.metadata && value.metadata.phone_number_id !== settings.phoneNumberId) continue;
        const names = new Map(
          (value.contacts ?? []).map((contact) => [contact.wa_id, contact.profile?.name]),
        );
        for (const message of value.messages ?? []) {
          const text = message.type === "text" ? (message.text?.body ?? "") : "";
          const audio = message.type === "audio" ? message.audio : undefined;
          if (text.trim() === "" && !audio) continue;
          messages.push({
            platformMessageId: message.id,
            threadKey: message.from,
            replyTo: { to: message.from },
            sender: {
              externalId: message.from,
              name: names.get(message.from),
              phone: `+${message.from}`,
            },
            payload: {
              text,
              ...(audio ? { audio: { mediaId: audio.id, mimeType: audio.mime_type } } : {}),
            },
            sentAt: new Date(Number(message.timestamp) * 1000),
          });
        }
        for (const status of value.statuses ?? []) {
          if (!STATUSES.has(status.status)) continue;
          statuses.push({
            platformMessageId: status.id,
            status: status.status as InboundStatus["status"],
            error: describeErrors(status.errors),
          });
        }
      }
    }
    return { kind: "events", messages, statuses };
  },

  async send(context, { settings }, to, text) {
    const sent = await graph(
      context,
      settings,
      "WhatsApp send",
      `${settings.phoneNumberId}/messages`,
      {
        messaging_product: "whatsapp",
        recipient_type: "individual",
        to: to.to,
        type: "text",
        text: { body: text, preview_url: false },
      },
    );
    const id = (sent.messages as Array<{ id?: string }> | undefined)?.[0]?.id;
    if (!id)
      throw new PlatformError("WhatsApp send: no message id in the answer", { retryable: false });
    return { platformMessageId: id };
  },

  async download(context, { settings }, audio) {
    const media = await graph(context, settings, "WhatsApp media", audio.mediaId);
    if (typeof media.url !== "string") {
      throw new PlatformError("WhatsApp media: no URL in the answer", { retryable: false });
    }
    return downloadFromPlatform(
      context,
      "WhatsApp media download",
      media.url,
      { authorization: `Bearer ${settings.accessToken}` },
      context.maxDownloadBytes,
    );
  },
};
