import { randomUUID } from "node:crypto";
import {
  bearerToken,
  type Endpoint,
  fieldsOf,
  json,
  type PlatformApi,
  type PlatformReply,
  type PlatformRequest,
  type ScriptedFailure,
  startPlatformServer,
} from "./platform-api.ts";

type SlackIdentity = {
  url: string;
  team: string;
  user: string;
  teamId: string;
  userId: string;
  botId: string;
  appId: string;
};

export type SlackApi = PlatformApi & {
  /** Who a bot token acts as: the workspace, the bot user and the bot, as `auth.test` says. */
  identityOf(token: string): SlackIdentity;
};

const TEXT_LIMIT = 40_000;

// Slack answers API errors with HTTP 200 and `ok: false`; only rate limits and outages differ.
const slackError = (error: string, status = 200, headers: Record<string, string> = {}) =>
  json(status, { ok: false, error }, headers);

/**
 * A fake Slack Web API (https://api.slack.com/web): `POST <baseUrl>/<method>` with a bot token
 * as a bearer (or a `token` form field) and JSON or form bodies.
 */
export async function startSlackApi(options: { botTokens: string[] }): Promise<SlackApi> {
  const identities = new Map(
    options.botTokens.map((token, index): [string, SlackIdentity] => [
      token,
      {
        url: "https://fake-workspace.slack.com/",
        team: "Fake Workspace",
        user: `agentdesk${index + 1}`,
        teamId: "T0FAKETEAM",
        userId: `U0FAKEBOT${index + 1}`,
        botId: `B0FAKEBOT${index + 1}`,
        appId: `A0FAKEAPP${index + 1}`,
      },
    ]),
  );
  let sequence = 0;
  const nextTs = () => {
    sequence += 1;
    return `${Math.floor(Date.now() / 1000)}.${String(sequence).padStart(6, "0")}`;
  };

  const methods: Record<string, (bot: SlackIdentity, body: Record<string, unknown>) => unknown> = {
    "auth.test": (bot) => ({
      ok: true,
      url: bot.url,
      team: bot.team,
      user: bot.user,
      team_id: bot.teamId,
      user_id: bot.userId,
      bot_id: bot.botId,
      is_enterprise_install: false,
    }),
    "chat.postMessage"(bot, body) {
      if (typeof body.channel !== "string" || body.channel === "") {
        return { ok: false, error: "channel_not_found" };
      }
      const text = typeof body.text === "string" ? body.text : "";
      if (text === "" && body.blocks === undefined && body.attachments === undefined) {
        return { ok: false, error: "no_text" };
      }
      if (text.length > TEXT_LIMIT) return { ok: false, error: "msg_too_long" };
      const ts = nextTs();
      const threadTs = typeof body.thread_ts === "string" ? body.thread_ts : undefined;
      return {
        ok: true,
        channel: body.channel,
        ts,
        message: {
          type: "message",
          text,
          user: bot.userId,
          bot_id: bot.botId,
          app_id: bot.appId,
          team: bot.teamId,
          ts,
          ...(threadTs === undefined ? {} : { thread_ts: threadTs }),
        },
      };
    },
  };

  const route = ({ call, url }: PlatformRequest): Endpoint => {
    const name = url.pathname.slice(1);
    const isForm = (call.headers["content-type"] ?? "").includes("x-www-form-urlencoded");
    const body = fieldsOf(call.body);
    return {
      name,
      answer(): PlatformReply {
        const handler = methods[name];
        if (!handler) return json(404, { ok: false, error: "unknown_method", req_method: name });
        // A JSON body's `token` is ignored: Slack takes tokens from the header or a form field.
        const token = bearerToken(call.headers) ?? (isForm ? body.token : undefined);
        if (typeof token !== "string" || token === "") return slackError("not_authed");
        const bot = identities.get(token);
        if (!bot) return slackError("invalid_auth");
        return json(200, handler(bot, body));
      },
    };
  };

  const failureReply = (failure: ScriptedFailure): PlatformReply => {
    if (failure.status === 429) {
      const seconds = String(failure.retryAfterSeconds ?? 1);
      return slackError("ratelimited", 429, { "retry-after": seconds });
    }
    if (failure.status === 503) return slackError("service_unavailable", 503);
    if (failure.status >= 500) return slackError("internal_error", failure.status);
    return slackError("fatal_error", failure.status);
  };

  const server = await startPlatformServer({ platform: "Slack", route, failureReply });
  return {
    ...server,
    identityOf(token) {
      const identity = identities.get(token);
      if (!identity) throw new Error(`fake Slack: no bot has the token ${token}`);
      return identity;
    },
  };
}

type EventFields = {
  teamId: string;
  apiAppId: string;
  eventId: string;
  /** Unix seconds (default: now). */
  eventTime?: number;
  /** The bot user the event is delivered for (`authorizations[0].user_id`). */
  botUserId?: string;
};

type MessageFields = EventFields & {
  channel: string;
  user: string;
  text: string;
  ts: string;
  threadTs?: string;
};

/** The `event_callback` envelope the Events API posts around every event. */
function eventCallback(fields: EventFields, event: object) {
  return {
    token: "Jhj5dZrVaK7ZwHHjRyZWjbDl",
    team_id: fields.teamId,
    context_team_id: fields.teamId,
    api_app_id: fields.apiAppId,
    event,
    type: "event_callback",
    event_id: fields.eventId,
    event_time: fields.eventTime ?? Math.floor(Date.now() / 1000),
    authorizations: [
      {
        enterprise_id: null,
        team_id: fields.teamId,
        user_id: fields.botUserId ?? "U0FAKEBOT1",
        is_bot: true,
        is_enterprise_install: false,
      },
    ],
    is_ext_shared_channel: false,
    event_context: `4-${Buffer.from(fields.eventId).toString("base64url")}`,
  };
}

function userMessage(fields: MessageFields, type: string) {
  return {
    type,
    client_msg_id: randomUUID(),
    text: fields.text,
    user: fields.user,
    ts: fields.ts,
    team: fields.teamId,
    ...(fields.threadTs === undefined ? {} : { thread_ts: fields.threadTs }),
    channel: fields.channel,
    event_ts: fields.ts,
  };
}

/** The request Slack sends once to confirm the Request URL; the app answers with the challenge. */
export function slackUrlVerification(challenge: string) {
  return { token: "Jhj5dZrVaK7ZwHHjRyZWjbDl", challenge, type: "url_verification" };
}

/** A message in a channel that mentions the app (`<@U…>` in the text). */
export function slackAppMention(fields: MessageFields) {
  return eventCallback(fields, userMessage(fields, "app_mention"));
}

/** A message a user sent the app in its direct-message channel. */
export function slackDirectMessage(fields: MessageFields) {
  return eventCallback(fields, { ...userMessage(fields, "message"), channel_type: "im" });
}

/**
 * A message posted by a bot (this app's own replies come back this way). Classic bots send
 * `subtype: "bot_message"`; apps posting with a bot token send only `bot_id` (subtype: false).
 */
export function slackBotMessage(
  fields: EventFields & {
    channel: string;
    channelType?: string;
    botId: string;
    text: string;
    ts: string;
    subtype?: boolean;
  },
) {
  return eventCallback(fields, {
    type: "message",
    ...(fields.subtype === false ? {} : { subtype: "bot_message" }),
    text: fields.text,
    ts: fields.ts,
    bot_id: fields.botId,
    channel: fields.channel,
    event_ts: fields.ts,
    channel_type: fields.channelType ?? "im",
  });
}

/** A user's edit of an earlier message: a `message_changed` carrying both versions. */
export function slackMessageChanged(
  fields: MessageFields & { previousText: string; editTs: string; channelType?: string },
) {
  const original = { type: "message", user: fields.user, ts: fields.ts, team: fields.teamId };
  return eventCallback(fields, {
    type: "message",
    subtype: "message_changed",
    message: {
      ...original,
      text: fields.text,
      edited: { user: fields.user, ts: fields.editTs },
      ...(fields.threadTs === undefined ? {} : { thread_ts: fields.threadTs }),
    },
    previous_message: { ...original, text: fields.previousText },
    channel: fields.channel,
    hidden: true,
    ts: fields.editTs,
    event_ts: fields.editTs,
    channel_type: fields.channelType ?? "im",
  });
}
