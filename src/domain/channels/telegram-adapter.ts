import { z } from "zod";
import { constantTimeEquals } from "../../lib/secrets.ts";
import {
  type ChannelAdapter,
  type ChannelSettings,
  InboundFormatError,
  type InboundMessage,
  type PlatformContext,
  PlatformError,
} from "./channel-adapter.ts";
import { callPlatform, downloadFromPlatform, failureOf } from "./platform-http.ts";

/** https://core.telegram.org/bots/api#update, the parts we read. */
const updateSchema = z.object({
  update_id: z.number(),
  message: z
    .object({
      message_id: z.number(),
      date: z.number(),
      chat: z.object({ id: z.number() }),
      from: z
        .object({
          id: z.number(),
          is_bot: z.boolean().optional(),
          first_name: z.string().optional(),
          last_name: z.string().optional(),
          username: z.string().optional(),
        })
        .optional(),
      text: z.string().optional(),
      caption: z.string().optional(),
      voice: z.object({ file_id: z.string(), mime_type: z.string().optional() }).optional(),
      audio: z.object({ file_id: z.string(), mime_type: z.string().optional() }).optional(),
    })
    .optional(),
});

type BotApiAnswer = {
  ok?: boolean;
  result?: unknown;
  description?: string;
  parameters?: { retry_after?: number };
};

async function botApi(
  context: PlatformContext,
  settings: ChannelSettings,
  method: string,
  json: Record<string, unknown> = {},
): Promise<unknown> {
  const url = `${context.platforms.telegramApiBaseUrl}/bot${settings.botToken}/${method}`;
  const response = await callPlatform(context, `Telegram ${method}`, url, { json });
  const answer = (response.body ?? {}) as BotApiAnswer;
  if (response.status === 200 && answer.ok === true) return answer.result;
  throw failureOf(
    `Telegram ${method}`,
    response,
    answer.description,
    answer.parameters?.retry_after,
  );
}

function senderName(from: { first_name?: string; last_name?: string; username?: string }) {
  const name = [from.first_name, from.last_name].filter(Boolean).join(" ");
  return name || from.username;
}

export const telegramAdapter: ChannelAdapter = {
  type: "telegram",
  configSchema: z.object({ botToken: z.string().trim().min(1).max(200) }),
  secretFields: ["botToken"],
  maxParts: 3,
  maxChars: 4_096,

  async connect(context, { settings, webhookUrl, webhookSecret }) {
    await botApi(context, settings, "getMe");
    await botApi(context, settings, "setWebhook", {
      url: webhookUrl,
      secret_token: webhookSecret,
      allowed_updates: ["message"],
    });
    return settings;
  },

  async disconnect(context, { settings }) {
    await botApi(context, settings, "deleteWebhook");
  },

  verify(request, { webhookSecret }) {
    const given = request.headers["x-telegram-bot-api-secret-token"];
    return given !== undefined && constantTimeEquals(given, webhookSecret);
  },

  read(request) {
    if (request.method !== "POST") throw new InboundFormatError("Telegram sends updates by POST");
    let update: z.infer<typeof updateSchema>;
    try {
      update = updateSchema.parse(JSON.parse(request.rawBody.toString("utf8")));
    } catch {
      throw new InboundFormatError("The body is not a Telegram Update");
    }
    const message = update.message;
    const messages: InboundMessage[] = [];
    // Edits, channel posts and other bots' messages are never answered.
    if (message?.from && !message.from.is_bot) {
      const text = message.text ?? message.caption ?? "";
      const audio = message.voice ?? message.audio;
      if (text.trim() !== "" || audio) {
        const chatId = String(message.chat.id);
        messages.push({
          platformMessageId: `${chatId}:${message.message_id}`,
          threadKey: chatId,
          replyTo: { chatId },
          sender: { externalId: String(message.from.id), name: senderName(message.from) },
          payload: {
            text,
            ...(audio ? { audio: { mediaId: audio.file_id, mimeType: audio.mime_type } } : {}),
          },
          sentAt: new Date(message.date * 1000),
          platformOrder: message.message_id,
        });
      }
    }
    return { kind: "events", messages, statuses: [] };
  },

  async send(context, { settings }, to, text) {
    const sent = (await botApi(context, settings, "sendMessage", {
      chat_id: to.chatId,
      text,
    })) as { message_id?: number };
    return { platformMessageId: `${to.chatId}:${sent.message_id}` };
  },

  async typing(context, { settings }, to) {
    await botApi(context, settings, "sendChatAction", { chat_id: to.chatId, action: "typing" });
  },

  async download(context, { settings }, audio) {
    const file = (await botApi(context, settings, "getFile", { file_id: audio.mediaId })) as {
      file_path?: string;
    };
    if (!file.file_path) {
      throw new PlatformError("Telegram getFile: no path in the answer", { retryable: false });
    }
    const base = context.platforms.telegramApiBaseUrl;
    return downloadFromPlatform(
      context,
      "Telegram file download",
      `${base}/file/bot${settings.botToken}/${file.file_path}`,
      {},
      context.maxDownloadBytes,
    );
  },
};
