import { z } from "zod";
import type { ReplyTarget } from "../../db/schema/index.ts";
import { constantTimeEquals, hmacSha256Hex } from "../../lib/secrets.ts";
import {
  type ChannelAdapter,
  type ChannelSettings,
  InboundFormatError,
  type InboundMessage,
  type PlatformContext,
  PlatformError,
} from "./channel-adapter.ts";
import { callPlatform, failureOf } from "./platform-http.ts";

/** A request signed longer ago than this is refused (a replayed event). */
const MAX_SIGNATURE_AGE_SECONDS = 300;

/**
 * Chatwoot relays the bot's messages to its inbox's own platform; 4,000 characters keeps a part
 * within WhatsApp's and Slack's, and an operator's reply (4,000 at most) in one message.
 */
const CHATWOOT_MAX_CHARS = 4_000;

const id = z.union([z.number().int(), z.string().min(1)]).transform(String);

/**
 * An Agent Bot event as Chatwoot posts it (the message's `webhook_data` with `event`), what we
 * read: https://www.chatwoot.com/docs/product/others/webhook-events
 */
const eventSchema = z.object({
  event: z.string(),
  id: id.optional(),
  content: z.string().nullish(),
  message_type: z.union([z.string(), z.number()]).optional(),
  private: z.boolean().optional(),
  created_at: z.union([z.string(), z.number()]).optional(),
  sender: z
    .object({
      id: id.optional(),
      name: z.string().nullish(),
      email: z.string().nullish(),
      phone_number: z.string().nullish(),
      type: z.string().nullish(),
    })
    .nullish(),
  account: z.object({ id: id.optional() }).nullish(),
  conversation: z
    .object({
      id,
      meta: z.object({ assignee: z.object({ type: z.string().nullish() }).nullish() }).nullish(),
    })
    .nullish(),
});

type ChatwootEvent = z.infer<typeof eventSchema>;

/** Written by the contact: the enum's name, or its number (0) as Chatwoot's push payloads have it. */
const isIncoming = (type: ChatwootEvent["message_type"]) => type === "incoming" || type === 0;

/** Whether a person (not a bot) is assigned the conversation in Chatwoot: the bot then keeps quiet. */
function assignedToPerson(event: ChatwootEvent): boolean {
  const assignee = event.conversation?.meta?.assignee;
  return assignee !== null && assignee !== undefined && assignee.type !== "agent_bot";
}

function sentAtOf(createdAt: ChatwootEvent["created_at"]): Date {
  const date =
    typeof createdAt === "number" ? new Date(createdAt * 1000) : new Date(createdAt ?? Number.NaN);
  return Number.isNaN(date.getTime()) ? new Date() : date;
}

/** A call to the Chatwoot instance of the channel's config, through the SSRF guard. */
async function chatwootApi(
  context: PlatformContext,
  settings: ChannelSettings,
  what: string,
  path: string,
  json: unknown,
): Promise<Record<string, unknown>> {
  const base = `${settings.baseUrl}/api/v1/accounts/${settings.accountId}`;
  const response = await callPlatform(
    { ...context, fetch: context.guardedFetch },
    what,
    `${base}/${path}`,
    {
      headers: { api_access_token: settings.apiAccessToken ?? "" },
      json,
    },
  );
  if (response.status >= 200 && response.status < 300) {
    return (response.body ?? {}) as Record<string, unknown>;
  }
  const body = response.body as { error?: unknown; message?: unknown } | null;
  const description = typeof body?.error === "string" ? body.error : undefined;
  throw failureOf(
    what,
    response,
    description ?? (typeof body?.message === "string" ? body.message : undefined),
  );
}

const conversationPath = (to: ReplyTarget) =>
  `conversations/${encodeURIComponent(to.conversationId ?? "")}`;

/**
 * The agent as a Chatwoot Agent Bot: Chatwoot posts the inbox's events to the channel's URL, the
 * agent answers through Chatwoot's API, and hands the conversation to Chatwoot's agents by
 * opening it; while one of them is assigned, the bot keeps quiet.
 */
export const chatwootAdapter: ChannelAdapter = {
  type: "chatwoot",
  configSchema: z.object({
    baseUrl: z
      .url({ protocol: /^https?$/, error: "must be an http or https URL" })
      .max(500)
      .transform((url) => url.replace(/\/+$/, "")),
    accountId: z
      .union([
        z.number().int().positive(),
        z
          .string()
          .trim()
          .regex(/^\d{1,20}$/, "must be the account's number"),
      ])
      .transform(String),
    apiAccessToken: z.string().trim().min(1).max(500),
    webhookSecret: z.string().trim().min(1).max(500).optional(),
  }) as unknown as z.ZodType<ChannelSettings>,
  secretFields: ["apiAccessToken", "webhookSecret"],
  maxParts: 3,
  maxChars: CHATWOOT_MAX_CHARS,

  // The instance must be one the SSRF guard lets us reach, and answer as Chatwoot does at /api.
  // The token is not checked here: an Agent Bot's token may call only the conversation endpoints
  // the bot uses, so a refused one shows at the first answer (status error, lastError).
  async connect(context, { settings }) {
    const what = "Chatwoot instance";
    let response: Awaited<ReturnType<typeof callPlatform>>;
    try {
      response = await callPlatform(
        { ...context, fetch: context.guardedFetch },
        what,
        `${settings.baseUrl}/api`,
      );
    } catch (error) {
      if (error instanceof PlatformError && !error.options.retryable)
        error.options.field = "baseUrl";
      throw error;
    }
    const version = (response.body as { version?: unknown } | null)?.version;
    if (response.status !== 200 || typeof version !== "string") {
      const failure = failureOf(
        what,
        response,
        `${settings.baseUrl}/api did not answer as Chatwoot does`,
      );
      if (!failure.options.retryable) failure.options.field = "baseUrl";
      throw failure;
    }
    return settings;
  },

  // The Agent Bot's webhook URL is set in Chatwoot: nothing to remove through the API.
  async disconnect() {},

  verify(request, { settings }, now) {
    // Without a secret there is nothing to check: the channel's URL is the only proof.
    if (!settings.webhookSecret) return true;
    const timestamp = request.headers["x-chatwoot-timestamp"];
    const signature = request.headers["x-chatwoot-signature"];
    if (!timestamp || !signature || !/^\d{1,12}$/.test(timestamp)) return false;
    if (Math.abs(now.getTime() / 1000 - Number(timestamp)) > MAX_SIGNATURE_AGE_SECONDS) {
      return false;
    }
    const expected = `sha256=${hmacSha256Hex(
      settings.webhookSecret,
      Buffer.concat([Buffer.from(`${timestamp}.`), request.rawBody]),
    )}`;
    return constantTimeEquals(signature, expected);
  },

  read(request, { settings }) {
    if (request.method !== "POST") throw new InboundFormatError("Chatwoot sends events by POST");
    let event: ChatwootEvent;
    try {
      event = eventSchema.parse(JSON.parse(request.rawBody.toString("utf8")));
    } catch {
      throw new InboundFormatError("The body is not a Chatwoot Agent Bot event");
    }
    const messages: InboundMessage[] = [];
    const answerable =
      event.event === "message_created" &&
      isIncoming(event.message_type) &&
      event.private !== true &&
      event.id !== undefined &&
      event.conversation &&
      (event.account?.id === undefined || event.account.id === settings.accountId) &&
      (event.sender?.type ?? "contact") === "contact" &&
      (event.content ?? "").trim() !== "" &&
      !assignedToPerson(event);
    if (answerable && event.conversation && event.id !== undefined) {
      const conversationId = event.conversation.id;
      const sender = event.sender;
      messages.push({
        platformMessageId: event.id,
        threadKey: conversationId,
        replyTo: { conversationId },
        sender: {
          externalId: sender?.id ?? conversationId,
          name: sender?.name ?? undefined,
          email: sender?.email ?? undefined,
          phone: sender?.phone_number ?? undefined,
        },
        payload: { text: event.content ?? "" },
        sentAt: sentAtOf(event.created_at),
        // Chatwoot's message ids grow with each message of the account.
        platformOrder: /^\d{1,15}$/.test(event.id) ? Number(event.id) : undefined,
      });
    }
    return { kind: "events", messages, statuses: [] };
  },

  async send(context, { settings }, to, text) {
    const sent = await chatwootApi(
      context,
      settings,
      "Chatwoot send",
      `${conversationPath(to)}/messages`,
      {
        content: text,
        message_type: "outgoing",
        private: false,
      },
    );
    if (sent.id === undefined || sent.id === null) {
      throw new PlatformError("Chatwoot send: no message id in the answer", { retryable: false });
    }
    return { platformMessageId: String(sent.id) };
  },

  async handOver(context, { settings }, to) {
    await chatwootApi(
      context,
      settings,
      "Chatwoot handoff",
      `${conversationPath(to)}/toggle_status`,
      {
        status: "open",
      },
    );
  },
};
