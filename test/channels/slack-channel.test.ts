import { describe, expect } from "vitest";
import { slackSignature } from "../fakes/platform-signatures.ts";
import {
  type SlackApi,
  slackAppMention,
  slackBotMessage,
  slackDirectMessage,
  slackMessageChanged,
  slackUrlVerification,
} from "../fakes/slack-api.ts";
import type { TestApp } from "../harness/app.ts";
import {
  type ChannelBody,
  type ChannelFixtures,
  channelTest,
  chatRequests,
  conversationsOf,
  createChannel,
  eventually,
  postInbound,
  SLACK_TOKEN,
} from "./channel-helpers.ts";

const SIGNING_SECRET = "8f742231b10e8888abcd99yyyzzz85a5";
const SUPPORT = "C0SUPPORT1";
const CUSTOMER = "U0CUSTOMER1";

const test = channelTest();

let channel: ChannelBody;
let bot: ReturnType<SlackApi["identityOf"]>;
test.beforeAll(async ({ app, org, agent, slack }) => {
  channel = await createChannel(
    { app, org, agent },
    {
      type: "slack",
      name: "Slack helpdesk",
      config: { botToken: SLACK_TOKEN, signingSecret: SIGNING_SECRET },
    },
  );
  bot = slack.identityOf(SLACK_TOKEN);
});
test.beforeEach(({ slack }) => {
  slack.calls.length = 0;
});

const nowSeconds = () => Math.floor(Date.now() / 1000);
let sequence = 0;
/** A fresh Slack message timestamp ("seconds.micro"), unique in this file. */
const nextTs = () => {
  sequence += 1;
  return `${nowSeconds()}.${String(sequence).padStart(6, "0")}`;
};
const envelope = () => ({ teamId: bot.teamId, apiAppId: bot.appId, eventId: `Ev0${nextTs()}` });
function mention(text: string, options: { ts?: string; threadTs?: string } = {}) {
  return slackAppMention({
    ...envelope(),
    channel: SUPPORT,
    user: CUSTOMER,
    text: `<@${bot.userId}> ${text}`,
    ts: options.ts ?? nextTs(),
    ...(options.threadTs ? { threadTs: options.threadTs } : {}),
  });
}

/** Signs the body as Slack does, at `timestamp` (now unless told). */
function send(app: TestApp, body: unknown, options: { timestamp?: number; retry?: number } = {}) {
  const raw = JSON.stringify(body);
  const timestamp = options.timestamp ?? nowSeconds();
  return postInbound(app, channel, raw, {
    "x-slack-request-timestamp": String(timestamp),
    "x-slack-signature": slackSignature(SIGNING_SECRET, timestamp, raw),
    ...(options.retry === undefined
      ? {}
      : { "x-slack-retry-num": String(options.retry), "x-slack-retry-reason": "http_timeout" }),
  });
}
type PostMessage = { channel: string; thread_ts?: string; text: string };
const posts = (slack: SlackApi) => slack.callsTo("chat.postMessage");
const postBodies = (slack: SlackApi) => posts(slack).map((call) => call.body as PostMessage);
const nothingMoreHappens = () => new Promise((resolve) => setTimeout(resolve, 1_000));
const getChannel = ({ app, org }: Pick<ChannelFixtures, "app" | "org">, id: string) =>
  app.api.inject({ method: "GET", url: `/api/channels/${id}`, headers: org.auth });
const slackConversations = async (fixtures: ChannelFixtures) =>
  (await conversationsOf(fixtures)).data.filter((row) => row.channel === "slack");

async function messagesOf({ app, org, agent }: ChannelFixtures, conversationId: string) {
  const response = await app.api.inject({
    method: "GET",
    url: `/api/conversations/${conversationId}?agentId=${agent.id}`,
    headers: org.auth,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().messages as Array<{
    from: string;
    text: string;
    delivery?: { status: string; platformMessageId: string | null; error: string | null };
  }>;
}

describe("a Slack channel", () => {
  test("is created by checking the token with auth.test, its credentials masked", async ({
    app,
    org,
    agent,
  }) => {
    expect(channel).toMatchObject({
      agentId: agent.id,
      type: "slack",
      name: "Slack helpdesk",
      status: "active",
      webhookUrl: `https://agents.example.com/channels/slack/${channel.id}`,
      config: {
        botToken: `••••${SLACK_TOKEN.slice(-4)}`,
        signingSecret: `••••${SIGNING_SECRET.slice(-4)}`,
      },
      lastError: null,
      lastEventAt: null,
    });
    const shown = JSON.stringify(channel) + (await getChannel({ app, org }, channel.id)).body;
    expect(shown).not.toContain(SLACK_TOKEN);
    expect(shown).not.toContain(SIGNING_SECRET);
  });

  test("refuses a token Slack does not know with 400, and stores nothing", async ({
    app,
    org,
    agent,
    slack,
  }) => {
    const response = await app.api.inject({
      method: "POST",
      url: `/api/agents/${agent.id}/channels`,
      headers: org.auth,
      payload: {
        type: "slack",
        config: { botToken: "xoxb-not-a-real-token", signingSecret: SIGNING_SECRET },
      },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatch(/Slack refused.*invalid_auth/);
    const [check] = slack.callsTo("auth.test");
    expect(check!.headers.authorization).toBe("Bearer xoxb-not-a-real-token");
    const list = await app.api.inject({
      method: "GET",
      url: `/api/agents/${agent.id}/channels`,
      headers: org.auth,
    });
    expect(list.json().data.map((row: ChannelBody) => row.id)).toEqual([channel.id]);
  });

  test("answers the signed url_verification with its challenge", async ({ app }) => {
    const challenge = "3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P";
    const response = await send(app, slackUrlVerification(challenge));
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toMatch(/^application\/json/);
    expect(response.json()).toEqual({ challenge });
  });

  test("refuses a bad or missing signature, and a correctly signed old request, with 401", async ({
    app,
    org,
    agent,
  }) => {
    const body = mention("Is this stored?");
    const raw = JSON.stringify(body);
    const now = nowSeconds();
    const stale = now - 301;
    const refused: Array<Record<string, string>> = [
      { "x-slack-request-timestamp": String(now), "x-slack-signature": "v0=00ff" },
      { "x-slack-request-timestamp": String(now) },
      {},
      {
        "x-slack-request-timestamp": String(now),
        "x-slack-signature": slackSignature("another-signing-secret", now, raw),
      },
      // Signed for another moment than the one the header claims.
      {
        "x-slack-request-timestamp": String(now),
        "x-slack-signature": slackSignature(SIGNING_SECRET, now - 1, raw),
      },
      {
        "x-slack-request-timestamp": String(stale),
        "x-slack-signature": slackSignature(SIGNING_SECRET, stale, raw),
      },
    ];
    for (const headers of refused) {
      expect((await postInbound(app, channel, raw, headers)).statusCode).toBe(401);
    }
    expect(await slackConversations({ app, org, agent })).toEqual([]);
    expect((await getChannel({ app, org }, channel.id)).json().lastEventAt).toBeNull();
  });

  test("answers a mention once in its thread, without the mention, whatever Slack retries", async ({
    app,
    org,
    agent,
    fake,
    slack,
  }) => {
    fake.script({ text: "We open at nine." });
    const ts = nextTs();
    const body = mention("When do you open?", { ts });
    expect((await send(app, body)).statusCode).toBe(200);
    expect((await send(app, body, { retry: 1 })).statusCode).toBe(200);
    await slack.waitForCalls("chat.postMessage", 1);
    await nothingMoreHappens();
    expect(chatRequests(fake)).toHaveLength(1);
    expect(postBodies(slack)).toEqual([
      { channel: SUPPORT, thread_ts: ts, text: "We open at nine." },
    ]);
    expect(posts(slack)[0]!.headers.authorization).toBe(`Bearer ${SLACK_TOKEN}`);

    const [conversation] = await slackConversations({ app, org, agent });
    expect(conversation!.channelExternalId).toBe(`${SUPPORT}:${ts}`);
    const messages = await messagesOf({ app, org, agent }, conversation!.id);
    expect(messages.map((message) => [message.from, message.text])).toEqual([
      ["human", "When do you open?"],
      ["agent", "We open at nine."],
    ]);
    expect(messages[1]!.delivery).toEqual({
      status: "sent",
      platformMessageId: expect.stringMatching(new RegExp(`^${SUPPORT}:\\d+\\.\\d{6}$`)),
      error: null,
    });
  });

  test("keeps two mentions in one thread in one conversation", async ({
    app,
    org,
    agent,
    fake,
    slack,
  }) => {
    const [thread] = await slackConversations({ app, org, agent });
    const rootTs = thread!.channelExternalId!.split(":")[1]!;
    fake.script({ text: "And on Sundays at ten." });
    expect((await send(app, mention("And on Sundays?", { threadTs: rootTs }))).statusCode).toBe(
      200,
    );
    await slack.waitForCalls("chat.postMessage", 1);
    expect(postBodies(slack)).toEqual([
      { channel: SUPPORT, thread_ts: rootTs, text: "And on Sundays at ten." },
    ]);
    const conversations = await slackConversations({ app, org, agent });
    expect(conversations).toHaveLength(1);
    const messages = await messagesOf({ app, org, agent }, conversations[0]!.id);
    expect(messages.map((message) => message.text)).toEqual([
      "When do you open?",
      "We open at nine.",
      "And on Sundays?",
      "And on Sundays at ten.",
    ]);
  });

  test("answers a direct message in its DM", async ({ app, org, agent, fake, slack }) => {
    fake.script({ text: "Hello Ada." });
    const body = slackDirectMessage({
      ...envelope(),
      channel: "D0DIRECT1",
      user: CUSTOMER,
      text: "Hello?",
      ts: nextTs(),
    });
    expect((await send(app, body)).statusCode).toBe(200);
    await slack.waitForCalls("chat.postMessage", 1);
    expect(postBodies(slack)).toEqual([{ channel: "D0DIRECT1", text: "Hello Ada." }]);
    const direct = (await slackConversations({ app, org, agent })).find(
      (row) => row.channelExternalId === "D0DIRECT1",
    );
    expect(direct).toBeDefined();
  });

  test("reads Slack's escaped &, < and > as text, and escapes them in the answer", async ({
    app,
    org,
    agent,
    fake,
    slack,
  }) => {
    // Slack escapes its control characters in what it sends, and reads them unescaped in what
    // it receives: an answer's "<!channel>" would notify everyone in the channel.
    fake.script({ text: "Yes <!channel> & all: 1 < 2 > 0" });
    const ts = nextTs();
    const body = mention("Is Q&amp;A open &lt;today&gt;? &amp;lt; is literal", { ts });
    expect((await send(app, body)).statusCode).toBe(200);
    await slack.waitForCalls("chat.postMessage", 1);
    expect(postBodies(slack)).toEqual([
      {
        channel: SUPPORT,
        thread_ts: ts,
        text: "Yes &lt;!channel&gt; &amp; all: 1 &lt; 2 &gt; 0",
      },
    ]);
    expect(JSON.stringify(chatRequests(fake)[0]!.body)).toContain(
      "Is Q&A open <today>? &lt; is literal",
    );
    const conversation = (await slackConversations({ app, org, agent })).find(
      (row) => row.channelExternalId === `${SUPPORT}:${ts}`,
    );
    const messages = await messagesOf({ app, org, agent }, conversation!.id);
    expect(messages.map((message) => message.text)).toEqual([
      "Is Q&A open <today>? &lt; is literal",
      "Yes <!channel> & all: 1 < 2 > 0",
    ]);
  });

  test("never answers bots, its own messages, edits or other subtypes", async ({
    app,
    fake,
    slack,
  }) => {
    const inDirect = { ...envelope(), channel: "D0DIRECT1", text: "beep" };
    const own = slackBotMessage({ ...inDirect, botId: bot.botId, ts: nextTs(), subtype: false });
    const otherBot = slackBotMessage({ ...inDirect, botId: "B0OTHERBOT", ts: nextTs() });
    const edit = slackMessageChanged({
      ...inDirect,
      user: CUSTOMER,
      text: "Hello? (edited)",
      previousText: "Hello?",
      ts: nextTs(),
      editTs: nextTs(),
    });
    const typed = slackDirectMessage({ ...inDirect, user: CUSTOMER, ts: nextTs() });
    const joined = { ...typed, event: { ...typed.event, subtype: "channel_join" } };
    const plain = slackDirectMessage({ ...inDirect, user: CUSTOMER, ts: nextTs() });
    // A channel message that does not mention the bot is not for it.
    const overheard = {
      ...plain,
      event: { ...plain.event, channel: SUPPORT, channel_type: "channel" },
    };
    for (const body of [own, otherBot, edit, joined, overheard]) {
      expect((await send(app, body)).statusCode).toBe(200);
    }
    await nothingMoreHappens();
    expect(posts(slack)).toEqual([]);
    expect(chatRequests(fake)).toHaveLength(0);
  });

  test("retries a post answered 429 after Retry-After and delivers it once", async ({
    app,
    org,
    agent,
    fake,
    slack,
  }) => {
    slack.failNext("chat.postMessage", { status: 429, retryAfterSeconds: 1 });
    fake.script({ text: "Sorry for the wait." });
    await send(app, mention("Are you there?"));
    const calls = await slack.waitForCalls("chat.postMessage", 2, 20_000);
    expect(calls[1]!.at - calls[0]!.at).toBeGreaterThanOrEqual(950);
    const conversation = (await slackConversations({ app, org, agent })).find((row) =>
      row.channelExternalId?.startsWith(`${SUPPORT}:`),
    );
    expect(conversation).toBeDefined();
    await eventually(async () => {
      const answers = (
        await Promise.all(
          (
            await slackConversations({ app, org, agent })
          ).map((row) => messagesOf({ app, org, agent }, row.id)),
        )
      )
        .flat()
        .filter((message) => message.text === "Sorry for the wait.");
      expect(answers).toHaveLength(1);
      expect(answers[0]!.delivery?.status).toBe("sent");
    });
    expect(slack.callsTo("chat.postMessage")).toHaveLength(2);
  });

  test("shows when Slack last reached the channel", async ({ app, org }) => {
    const response = await getChannel({ app, org }, channel.id);
    expect(response.statusCode).toBe(200);
    expect(response.json().lastEventAt).toEqual(expect.any(String));
  });

  test("goes to status error when Slack refuses the token at send time, and back with a working one", async ({
    app,
    org,
    fake,
    slack,
  }) => {
    slack.failNext("chat.postMessage", {
      status: 200,
      body: { ok: false, error: "invalid_auth" },
    });
    fake.script({ text: "You will not see this." });
    await send(app, mention("Still there?"));
    await slack.waitForCalls("chat.postMessage", 1);
    const broken = await eventually(async () => {
      const body = (await getChannel({ app, org }, channel.id)).json();
      expect(body.status).toBe("error");
      return body;
    });
    expect(broken.lastError).toBe("Slack chat.postMessage: invalid_auth");

    const patched = await app.api.inject({
      method: "PATCH",
      url: `/api/channels/${channel.id}`,
      headers: org.auth,
      payload: { config: { botToken: SLACK_TOKEN } },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json()).toMatchObject({ status: "active", lastError: null });
    expect(slack.callsTo("auth.test")).toHaveLength(1);
  });
});
