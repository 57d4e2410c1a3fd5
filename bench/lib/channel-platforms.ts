import { startGraphApi } from "../../test/fakes/graph-api.ts";
import { messengerTextWebhook } from "../../test/fakes/messenger-webhooks.ts";
import type { PlatformCall } from "../../test/fakes/platform-api.ts";
import { metaSignature, metaWebhookBody } from "../../test/fakes/platform-signatures.ts";
import { startFakeSmtp } from "../../test/fakes/smtp-server.ts";
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
  /** Told of the channel once created (mail: its inbound token, shown only then). */
  created?(channel: { inboundToken?: string | undefined }): void;
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

/** The size of each raw mail posted: a reply with a long quoted history, as real mail is. */
const MAIL_BYTES = 20 * 1024;
const MAIL_ADDRESS = "support@shop.example";

/**
 * Mail: each chat is one thread (its References root), each message a raw mail of MAIL_BYTES
 * whose quoted history (stripped before the model sees it) fills what the new text leaves;
 * answers are read back from a fake SMTP server.
 */
async function mail(): Promise<BenchPlatform> {
  const smtp = await startFakeSmtp();
  const { simpleParser } = await import("mailparser");
  const sent: PlatformCall[] = [];
  // Parsed as they arrive, kept in the order received.
  let parsing = Promise.resolve();
  smtp.onMail((received) => {
    const at = Date.now();
    parsing = parsing.then(async () => {
      const text = ((await simpleParser(received.raw)).text ?? "").trim();
      const chatId = /^c(\d+)@/.exec(received.to[0] ?? "")?.[1] ?? "0";
      sent.push({
        name: "mail",
        method: "SMTP",
        path: "",
        headers: {},
        body: { chatId, text },
        at,
      });
    });
  });
  let token = "";
  const rootOf = (chatId: number) => `thread-${chatId}@customer.example`;
  return {
    label: "Mail (raw MIME of 20 KB)",
    env: { SMTP_URL: smtp.url },
    channelBody: { type: "mail", name: "Bench inbox", config: { address: MAIL_ADDRESS } },
    created(channel) {
      token = channel.inboundToken ?? "";
    },
    headersOf: () => ({ "content-type": "message/rfc822", authorization: `Bearer ${token}` }),
    body({ updateId, chatId, text, date }) {
      const head = [
        `From: "Customer ${chatId}" <c${chatId}@customer.example>`,
        `To: ${MAIL_ADDRESS}`,
        "Subject: Re: My order",
        `Date: ${date.toUTCString()}`,
        `Message-ID: <m${updateId}.${chatId}@customer.example>`,
        `In-Reply-To: <${rootOf(chatId)}>`,
        `References: <${rootOf(chatId)}>`,
        "MIME-Version: 1.0",
        "Content-Type: text/plain; charset=utf-8",
        "Content-Transfer-Encoding: 8bit",
        "",
        text,
        "",
        `On Mon, 1 Dec 2026 at 10:00, Support <${MAIL_ADDRESS}> wrote:`,
      ].join("\r\n");
      const quoted = "> Thank you for your message; we will look into your order right away.\r\n";
      return `${head}\r\n${quoted.repeat(Math.max(0, Math.ceil((MAIL_BYTES - head.length) / quoted.length)))}`;
    },
    sends: () => sent,
    read(call) {
      const body = call.body as { chatId: string; text: string };
      return { chatId: Number(body.chatId), text: body.text };
    },
    chatOf: (externalId) => Number(/^thread-(\d+)@/.exec(externalId)?.[1] ?? Number.NaN),
    close: () => smtp.close(),
  };
}

export const BENCH_PLATFORMS = { telegram, meta, mail } as const;
export type BenchPlatformName = keyof typeof BENCH_PLATFORMS;
