import { randomBytes } from "node:crypto";
import { STATUS_CODES } from "node:http";
import {
  type Endpoint,
  fieldsOf,
  json,
  type PlatformApi,
  type PlatformReply,
  type PlatformRequest,
  type ScriptedFailure,
  startPlatformServer,
} from "./platform-api.ts";

type TelegramUser = {
  id: number;
  is_bot: boolean;
  first_name: string;
  last_name?: string;
  username?: string;
};

type TelegramWebhook = {
  url: string;
  secret_token?: string;
  allowed_updates?: string[];
  drop_pending_updates?: boolean;
};

export type TelegramApi = PlatformApi & {
  /** The bot a token belongs to, as `getMe` describes it. */
  botOf(token: string): TelegramUser;
  webhookOf(token: string): TelegramWebhook | undefined;
  /** Stores a file that `getFile` and the download URL serve to that bot; returns its file_id. */
  addFile(token: string, bytes: Buffer, options?: { fileId?: string; filePath?: string }): string;
};

type StoredFile = { fileId: string; uniqueId: string; path: string; bytes: Buffer };

const MESSAGE_LIMIT = 4096;
const CHAT_ACTIONS = new Set([
  "typing",
  "upload_photo",
  "record_video",
  "upload_video",
  "record_voice",
  "upload_voice",
  "upload_document",
  "choose_sticker",
  "find_location",
  "record_video_note",
  "upload_video_note",
]);

function failure(status: number, description: string, extra: object = {}): PlatformReply {
  return json(status, { ok: false, error_code: status, description, ...extra });
}

const ok = (result: unknown, extra: object = {}) => json(200, { ok: true, result, ...extra });
const badRequest = (reason: string) => failure(400, `Bad Request: ${reason}`);
const notFound = () => failure(404, "Not Found");

/** Form and query values arrive as strings; the Bot API reads JSON arrays and objects in them. */
function jsonParameter(value: unknown): unknown {
  if (typeof value !== "string") return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}

function chatOf(chatId: unknown): { id: number | string; type: string } {
  if (typeof chatId === "string" && !/^-?\d+$/.test(chatId)) return { id: chatId, type: "channel" };
  const id = Number(chatId);
  if (id > 0) return { id, type: "private" };
  return { id, type: String(id).startsWith("-100") ? "supergroup" : "group" };
}

/**
 * A fake Telegram Bot API (https://core.telegram.org/bots/api): `/bot<token>/<method>` with JSON,
 * form or query parameters, and file downloads at `/file/bot<token>/<file_path>`.
 */
export async function startTelegramApi(options: { tokens: string[] }): Promise<TelegramApi> {
  const tokens = new Set(options.tokens);
  const webhooks = new Map<string, TelegramWebhook>();
  const files = new Map<string, Map<string, StoredFile>>();
  let messageId = 0;
  let fileCount = 0;

  const botOf = (token: string): TelegramUser => {
    const prefix = Number(token.split(":")[0]);
    const id = Number.isSafeInteger(prefix) && prefix > 0 ? prefix : 7_000_000_000;
    return { id, is_bot: true, first_name: "Fake Bot", username: `fake_${id}_bot` };
  };
  const filesOf = (token: string) => files.get(token) ?? new Map<string, StoredFile>();

  const methods: Record<string, (token: string, params: Record<string, unknown>) => PlatformReply> =
    {
      getMe: (token) => ok(botOf(token)),
      setWebhook(token, params) {
        const url = typeof params.url === "string" ? params.url : "";
        if (url === "") {
          const had = webhooks.delete(token);
          return ok(true, {
            description: had ? "Webhook was deleted" : "Webhook is already deleted",
          });
        }
        const already = webhooks.get(token)?.url === url;
        const allowedUpdates = jsonParameter(params.allowed_updates);
        webhooks.set(token, {
          url,
          ...(params.secret_token === undefined
            ? {}
            : { secret_token: String(params.secret_token) }),
          ...(Array.isArray(allowedUpdates) ? { allowed_updates: allowedUpdates.map(String) } : {}),
          ...(params.drop_pending_updates === undefined
            ? {}
            : { drop_pending_updates: String(params.drop_pending_updates) === "true" }),
        });
        return ok(true, { description: already ? "Webhook is already set" : "Webhook was set" });
      },
      deleteWebhook(token) {
        const had = webhooks.delete(token);
        return ok(true, {
          description: had ? "Webhook was deleted" : "Webhook is already deleted",
        });
      },
      getWebhookInfo(token) {
        const webhook = webhooks.get(token);
        return ok({
          url: webhook?.url ?? "",
          has_custom_certificate: false,
          pending_update_count: 0,
          ...(webhook?.allowed_updates ? { allowed_updates: webhook.allowed_updates } : {}),
        });
      },
      sendMessage(token, params) {
        if (params.chat_id === undefined || params.chat_id === "") {
          return badRequest("chat_id is empty");
        }
        const text = typeof params.text === "string" ? params.text : String(params.text ?? "");
        if (text.trim() === "") return badRequest("message text is empty");
        if (text.length > MESSAGE_LIMIT) return badRequest("message is too long");
        messageId += 1;
        return ok({
          message_id: messageId,
          from: botOf(token),
          chat: chatOf(params.chat_id),
          date: Math.floor(Date.now() / 1000),
          text,
        });
      },
      sendChatAction(_token, params) {
        if (params.chat_id === undefined || params.chat_id === "") {
          return badRequest("chat_id is empty");
        }
        if (!CHAT_ACTIONS.has(String(params.action))) {
          return badRequest("wrong parameter action in request");
        }
        return ok(true);
      },
      getFile(token, params) {
        const file = filesOf(token).get(String(params.file_id ?? ""));
        if (!file) return badRequest("invalid file_id");
        return ok({
          file_id: file.fileId,
          file_unique_id: file.uniqueId,
          file_size: file.bytes.length,
          file_path: file.path,
        });
      },
    };
  // The Bot API matches method names without regard to case.
  const methodNames = new Map(Object.keys(methods).map((name) => [name.toLowerCase(), name]));

  const route = ({ call, url }: PlatformRequest): Endpoint => {
    const download = /^\/file\/bot([^/]+)\/(.+)$/.exec(url.pathname);
    if (download) {
      const token = decodeURIComponent(download[1]!);
      const path = decodeURIComponent(download[2]!);
      return {
        name: "file",
        answer() {
          const file = [...filesOf(token).values()].find((stored) => stored.path === path);
          if (!tokens.has(token) || !file) return notFound();
          return { status: 200, bytes: file.bytes, contentType: "application/octet-stream" };
        },
      };
    }
    const match = /^\/bot([^/]+)\/([^/]+)$/.exec(url.pathname);
    if (!match) return { name: url.pathname, answer: notFound };
    const token = decodeURIComponent(match[1]!);
    const name = methodNames.get(match[2]!.toLowerCase()) ?? match[2]!;
    return {
      name,
      answer() {
        if (!tokens.has(token)) return failure(401, "Unauthorized");
        const handler = methods[name];
        if (!handler) return notFound();
        return handler(token, { ...Object.fromEntries(url.searchParams), ...fieldsOf(call.body) });
      },
    };
  };

  const failureReply = (scripted: ScriptedFailure): PlatformReply => {
    if (scripted.status === 429) {
      const seconds = scripted.retryAfterSeconds ?? 1;
      return {
        ...failure(429, `Too Many Requests: retry after ${seconds}`, {
          parameters: { retry_after: seconds },
        }),
        headers: { "retry-after": String(seconds) },
      };
    }
    const description =
      scripted.status === 403
        ? "Forbidden: bot was blocked by the user"
        : (STATUS_CODES[scripted.status] ?? "Error");
    return failure(scripted.status, description);
  };

  const server = await startPlatformServer({ platform: "Telegram", route, failureReply });
  return {
    ...server,
    botOf,
    webhookOf: (token) => webhooks.get(token),
    addFile(token, bytes, fileOptions = {}) {
      fileCount += 1;
      const fileId =
        fileOptions.fileId ?? `AwACAgQAAxkBAAI${randomBytes(12).toString("base64url")}`;
      const stored: StoredFile = {
        fileId,
        uniqueId: `AgAD${randomBytes(6).toString("base64url")}`,
        path: fileOptions.filePath ?? `voice/file_${fileCount}.oga`,
        bytes,
      };
      files.set(token, filesOf(token).set(fileId, stored));
      return fileId;
    },
  };
}

type TelegramSender = { id: number; first_name: string; last_name?: string; username?: string };

type UpdateFields = {
  updateId: number;
  messageId: number;
  /** A user's id for a private chat; negative for a group (-100… for a supergroup). */
  chatId: number;
  from: TelegramSender;
  /** Unix seconds (default: now). */
  date?: number;
};

function messageOf<Content extends object>(fields: UpdateFields, isBot: boolean, content: Content) {
  const { from } = fields;
  const names = {
    first_name: from.first_name,
    ...(from.last_name === undefined ? {} : { last_name: from.last_name }),
    ...(from.username === undefined ? {} : { username: from.username }),
  };
  const { type } = chatOf(fields.chatId);
  return {
    message_id: fields.messageId,
    from: { id: from.id, is_bot: isBot, ...names, ...(isBot ? {} : { language_code: "en" }) },
    chat:
      type === "private"
        ? { id: fields.chatId, ...names, type }
        : { id: fields.chatId, title: "Fake group", type },
    date: fields.date ?? Math.floor(Date.now() / 1000),
    ...content,
  };
}

function textContent(text: string) {
  const command = /^\/\S+/.exec(text);
  return {
    text,
    ...(command
      ? { entities: [{ offset: 0, length: command[0].length, type: "bot_command" }] }
      : {}),
  };
}

/** An Update carrying a text message, as Telegram posts it to a webhook. */
export function telegramTextUpdate(fields: UpdateFields & { text: string }) {
  return {
    update_id: fields.updateId,
    message: messageOf(fields, false, textContent(fields.text)),
  };
}

/** An Update carrying a voice note (OGG/Opus); fetch it with getFile and the file URL. */
export function telegramVoiceUpdate(
  fields: UpdateFields & {
    fileId: string;
    fileUniqueId?: string;
    duration: number;
    mimeType?: string;
    fileSize?: number;
  },
) {
  const voice = {
    duration: fields.duration,
    mime_type: fields.mimeType ?? "audio/ogg",
    file_id: fields.fileId,
    file_unique_id: fields.fileUniqueId ?? `AgAD${fields.fileId.slice(-8)}`,
    ...(fields.fileSize === undefined ? {} : { file_size: fields.fileSize }),
  };
  return { update_id: fields.updateId, message: messageOf(fields, false, { voice }) };
}

/** An Update for a message the user edited: `edited_message`, with `edit_date`. */
export function telegramEditedUpdate(fields: UpdateFields & { text: string; editDate?: number }) {
  const editDate = fields.editDate ?? Math.floor(Date.now() / 1000);
  const content = { edit_date: editDate, ...textContent(fields.text) };
  return { update_id: fields.updateId, edited_message: messageOf(fields, false, content) };
}

/** An Update for a message another bot sent in a group (`from.is_bot: true`). */
export function telegramBotMessageUpdate(fields: UpdateFields & { text: string }) {
  return { update_id: fields.updateId, message: messageOf(fields, true, textContent(fields.text)) };
}
