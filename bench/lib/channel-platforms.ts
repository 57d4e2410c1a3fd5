import { startGraphApi } from "../../test/fakes/graph-api.ts";
import { messengerTextWebhook } from "../../test/fakes/messenger-webhooks.ts";
import type { PlatformCall } from "../../test/fakes/platform-api.ts";
import { metaSignature, metaWebhookBody } from "../../test/fakes/platform-signatures.ts";
import { startTelegramApi, telegramTextUpdate } from "../../test/fakes/telegram-api.ts";

/** One customer message of the run, as the bench plans it. */
export type BenchMessage = { updateId: number; chatId: number; text: string; date: Date };

/** An answer the fake platform was asked to send: to which chat, what. */
export type SentAnswer = { chatId: number; text: string };

/**
 * A platform the channel bench can drive: its fake API, the channel made through the API, the
 * bodies it posts to the webhook (signed as the platform signs them) and the answers it got.
 */
export type BenchPlatform = {
  /** Names the run's table: "Telegram webhook". */
  label: string;
  /** The base URL variables that point the service at the fake. */
  env: Record<string, string>;
  /** The `POST /api/agents/{id}/channels` body of this platform's channel. */
  channelBody: Record<string, unknown>;
  /** The headers every request needs, once the channel exists (Telegram's secret), or per body. */
  headersOf(body: string): Record<string, string>;
  body(message: BenchMessage): string;
  /** The answers sent, in the order the fake received them. */
  sends(): PlatformCall[];
  read(call: PlatformCall): SentAnswer;
  /** The bench's chat number of a stored conversation's `channelExternalId`. */
  chatOf(channelExternalId: string): number;
  close(): Promise<void>;
};

const BOT_TOKEN = "7000000001:AAH-bench-bot-token-of-the-agent";

async function telegram(): Promise<BenchPlatform> {
  const api = await startTelegramApi({ tokens: [BOT_TOKEN] });
  return {
    label: "Telegram webhook",
    env: { TELEGRAM_API_BASE_URL: api.baseUrl },
    channelBody: { type: "telegram", name: "Bench bot", config: { botToken: BOT_TOKEN } },
    headersOf() {
      const secret = api.webhookOf(BOT_TOKEN)?.secret_token;
      if (!secret) throw new Error("the channel did not register its webhook with a secret");
      return { "x-telegram-bot-api-secret-token": secret };
    },
    body: ({ updateId, chatId, text, date }) =>
      JSON.stringify(
        telegramTextUpdate({
          updateId,
          messageId: updateId,
          chatId,
          from: { id: chatId, first_name: "Customer", last_name: String(chatId) },
          date: Math.floor(date.getTime() / 1000),
          text,
        }),
      ),
    sends: () => api.callsTo("sendMessage"),
    read(call) {
      const body = call.body as { chat_id: string | number; text: string };
      return { chatId: Number(body.chat_id), text: body.text };
    },
    chatOf: Number,
    close: () => api.close(),
  };
}

const PAGE = {
  id: "104870652375193",
  name: "Bench page",
  accessToken: "EAAJ-bench-page-access-token",
};
const APP_SECRET = "bench-app-secret-0123456789abcdef";

async function meta(): Promise<BenchPlatform> {
  const api = await startGraphApi({ accessTokens: [], pages: [PAGE] });
  return {
    label: "Messenger webhook (meta)",
    env: { META_GRAPH_API_BASE_URL: api.baseUrl },
    channelBody: {
      type: "meta",
      name: "Bench page",
      config: { pageId: PAGE.id, pageAccessToken: PAGE.accessToken, appSecret: APP_SECRET },
    },
    // Each body is signed on its bytes, as Meta signs it.
    headersOf: (body) => ({ "x-hub-signature-256": metaSignature(APP_SECRET, body) }),
    body: ({ updateId, chatId, text, date }) =>
      metaWebhookBody(
        messengerTextWebhook({
          object: "page",
          accountId: PAGE.id,
          senderId: String(chatId),
          mid: `m_bench_${updateId}`,
          text,
          timestamp: date.getTime(),
        }),
      ),
    sends: () =>
      api
        .callsTo("messages")
        .filter((call) => (call.body as { message?: unknown }).message !== undefined),
    read(call) {
      const body = call.body as { recipient: { id: string }; message: { text: string } };
      return { chatId: Number(body.recipient.id), text: body.message.text };
    },
    chatOf: (externalId) => Number(externalId.replace(/^messenger:/, "")),
    close: () => api.close(),
  };
}

export const BENCH_PLATFORMS = { telegram, meta } as const;
export type BenchPlatformName = keyof typeof BENCH_PLATFORMS;
