import { z } from "zod";
import { constantTimeEquals, hmacSha256Hex } from "../../lib/secrets.ts";
import {
  type ChannelAdapter,
  type ChannelSettings,
  InboundFormatError,
  type InboundMessage,
  type PlatformContext,
} from "./channel-adapter.ts";
import { callPlatform, failureOf } from "./platform-http.ts";

/** Slack's replay window: a request signed longer ago than this is refused. */
const MAX_SIGNATURE_AGE_SECONDS = 300;

/** Errors that mean the token no longer works: the channel goes to status error. */
const REFUSED_TOKEN = new Set([
  "invalid_auth",
  "not_authed",
  "account_inactive",
  "token_revoked",
  "token_expired",
]);

/** Message subtypes that are still a person's message to answer. */
const ANSWERED_SUBTYPES = new Set(["file_share", "thread_broadcast"]);

/** https://api.slack.com/apis/events-api, what we read of a request. */
const envelopeSchema = z.object({
  type: z.string(),
  challenge: z.string().optional(),
  event: z
    .object({
      type: z.string(),
      subtype: z.string().optional(),
      channel: z.string().optional(),
      channel_type: z.string().optional(),
      user: z.string().optional(),
      bot_id: z.string().optional(),
      text: z.string().optional(),
      ts: z.string().optional(),
      thread_ts: z.string().optional(),
    })
    .optional(),
});

type SlackAnswer = {
  ok?: boolean;
  error?: string;
  ts?: string;
  user_id?: string;
  team_id?: string;
};

async function webApi(
  context: PlatformContext,
  settings: ChannelSettings,
  method: string,
  json: Record<string, unknown> = {},
): Promise<SlackAnswer> {
  const what = `Slack ${method}`;
  const response = await callPlatform(
    context,
    what,
    `${context.platforms.slackApiBaseUrl}/${method}`,
    {
      headers: { authorization: `Bearer ${settings.botToken}` },
      json,
    },
  );
  const answer = (response.body ?? {}) as SlackAnswer;
  if (response.status === 200 && answer.ok === true) return answer;
  // Slack answers its errors with 200 and `ok: false`, and rate limits with 429.
  const failure = failureOf(what, response, answer.error);
  if (answer.error && REFUSED_TOKEN.has(answer.error)) failure.options.credentialsRefused = true;
  throw failure;
}

/** The message without the mention of our bot that brought it to us. */
function withoutMention(text: string, botUserId: string | undefined) {
  return botUserId ? text.replaceAll(`<@${botUserId}>`, "").trim() : text.trim();
}

// &, < and > are Slack's control characters: it escapes them in the text it sends us, and
// reads them unescaped in ours, so an answer's "<!channel>" would notify a whole channel.
// https://api.slack.com/reference/surfaces/formatting#escaping
const unescaped = (text: string) =>
  text.replaceAll("&lt;", "<").replaceAll("&gt;", ">").replaceAll("&amp;", "&");
const escaped = (text: string) =>
  text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");

export const slackAdapter: ChannelAdapter = {
  type: "slack",
  configSchema: z.object({
    botToken: z.string().trim().min(1).max(500),
    signingSecret: z.string().trim().min(1).max(200),
    botUserId: z.string().optional(),
    teamId: z.string().optional(),
  }) as z.ZodType<ChannelSettings>,
  secretFields: ["botToken", "signingSecret"],
  maxParts: 3,
  // Slack truncates past 40,000 characters and advises 4,000 for readable messages.
  maxChars: 4_000,

  async connect(context, { settings }) {
    const identity = await webApi(context, settings, "auth.test");
    return {
      ...settings,
      ...(identity.user_id ? { botUserId: identity.user_id } : {}),
      ...(identity.team_id ? { teamId: identity.team_id } : {}),
    };
  },

  // The Events API URL is the Slack app's, set in its dashboard: nothing to remove by API.
  async disconnect() {},

  verify(request, { settings }, now) {
    const timestamp = request.headers["x-slack-request-timestamp"];
    const signature = request.headers["x-slack-signature"];
    if (!timestamp || !signature || !settings.signingSecret || !/^\d{1,12}$/.test(timestamp)) {
      return false;
    }
    if (Math.abs(now.getTime() / 1000 - Number(timestamp)) > MAX_SIGNATURE_AGE_SECONDS)
      return false;
    const expected = `v0=${hmacSha256Hex(
      settings.signingSecret,
      Buffer.concat([Buffer.from(`v0:${timestamp}:`), request.rawBody]),
    )}`;
    return constantTimeEquals(signature, expected);
  },

  read(request, { settings }) {
    if (request.method !== "POST") throw new InboundFormatError("Slack sends events by POST");
    let envelope: z.infer<typeof envelopeSchema>;
    try {
      envelope = envelopeSchema.parse(JSON.parse(request.rawBody.toString("utf8")));
    } catch {
      throw new InboundFormatError("The body is not a Slack Events API request");
    }
    if (envelope.type === "url_verification") {
      return {
        kind: "handshake",
        status: 200,
        contentType: "application/json",
        body: JSON.stringify({ challenge: envelope.challenge ?? "" }),
      };
    }
    const event = envelope.event;
    const messages: InboundMessage[] = [];
    const addressed =
      event?.type === "app_mention" || (event?.type === "message" && event.channel_type === "im");
    // Bots (ours included), edits, deletions and the other subtypes are never answered; a message
    // with a file, or a thread reply also sent to the channel, is a person writing.
    const fromPerson =
      event &&
      !event.bot_id &&
      (!event.subtype || ANSWERED_SUBTYPES.has(event.subtype)) &&
      event.user &&
      event.user !== settings.botUserId;
    if (
      envelope.type === "event_callback" &&
      event &&
      addressed &&
      fromPerson &&
      event.channel &&
      event.ts
    ) {
      const text = unescaped(withoutMention(event.text ?? "", settings.botUserId));
      const direct = event.channel_type === "im";
      // A mention starts (or continues) a thread; a direct message is one conversation per DM.
      const threadTs = event.thread_ts ?? (direct ? undefined : event.ts);
      if (text !== "") {
        messages.push({
          platformMessageId: `${event.channel}:${event.ts}`,
          threadKey: threadTs ? `${event.channel}:${threadTs}` : event.channel,
          replyTo: { channel: event.channel, ...(threadTs ? { threadTs } : {}) },
          sender: { externalId: event.user! },
          payload: { text },
          sentAt: new Date(Number(event.ts) * 1000),
          platformOrder: Math.round(Number(event.ts) * 1e6),
        });
      }
    }
    return { kind: "events", messages, statuses: [] };
  },

  async send(context, { settings }, to, text) {
    const sent = await webApi(context, settings, "chat.postMessage", {
      channel: to.channel,
      text: escaped(text),
      ...(to.threadTs ? { thread_ts: to.threadTs } : {}),
    });
    return { platformMessageId: `${to.channel}:${sent.ts}` };
  },
};
