import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { slackSignature } from "../fakes/platform-signatures.ts";
import {
  slackAppMention,
  slackBotMessage,
  slackDirectMessage,
  slackMessageChanged,
  slackUrlVerification,
} from "../fakes/slack-api.ts";
import {
  type ChannelBody,
  type ChannelTestApp,
  conversationsOf,
  createChannel,
  eventually,
  postInbound,
  SLACK_TOKEN,
  startChannelTestApp,
} from "./channel-helpers.ts";

const SIGNING_SECRET = "8f742231b10e8888abcd99yyyzzz85a5";
const SUPPORT = "C0SUPPORT1";
const CUSTOMER = "U0CUSTOMER1";

let t: ChannelTestApp;
let channel: ChannelBody;
let bot: ReturnType<ChannelTestApp["slack"]["identityOf"]>;
beforeAll(async () => {
  t = await startChannelTestApp();
  channel = await createChannel(t, {
    type: "slack",
    name: "Slack helpdesk",
    config: { botToken: SLACK_TOKEN, signingSecret: SIGNING_SECRET },
  });
  bot = t.slack.identityOf(SLACK_TOKEN);
});
afterAll(() => t.close());
beforeEach(() => {
  t.slack.calls.length = 0;
  t.fake.requests.length = 0;
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
function send(body: unknown, options: { timestamp?: number; retry?: number } = {}) {
  const raw = JSON.stringify(body);
  const timestamp = options.timestamp ?? nowSeconds();
  return postInbound(t.app, channel, raw, {
    "x-slack-request-timestamp": String(timestamp),
    "x-slack-signature": slackSignature(SIGNING_SECRET, timestamp, raw),
    ...(options.retry === undefined
      ? {}
      : { "x-slack-retry-num": String(options.retry), "x-slack-retry-reason": "http_timeout" }),
  });
}
type PostMessage = { channel: string; thread_ts?: string; text: string };
const posts = () => t.slack.callsTo("chat.postMessage");
const postBodies = () => posts().map((call) => call.body as PostMessage);
const chatRequests = () =>
  t.fake.requests.filter((request) => request.path === "/v1/chat/completions");
const nothingMoreHappens = () => new Promise((resolve) => setTimeout(resolve, 1_000));
const getChannel = (id: string) =>
  t.app.api.inject({ method: "GET", url: `/api/channels/${id}`, headers: t.org.auth });
const slackConversations = async () =>
  (await conversationsOf(t)).data.filter((row) => row.channel === "slack");

async function messagesOf(conversationId: string) {
  const response = await t.app.api.inject({
    method: "GET",
    url: `/api/conversations/${conversationId}?agentId=${t.agentId}`,
    headers: t.org.auth,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().messages as Array<{
    from: string;
    text: string;
    delivery?: { status: string; platformMessageId: string | null; error: string | null };
  }>;
}

describe("a Slack channel", () => {
  test("is created by checking the token with auth.test, its credentials masked", async () => {
    expect(channel).toMatchObject({
      agentId: t.agentId,
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
    const shown = JSON.stringify(channel) + (await getChannel(channel.id)).body;
    expect(shown).not.toContain(SLACK_TOKEN);
    expect(shown).not.toContain(SIGNING_SECRET);
  });

  test("refuses a token Slack does not know with 400, and stores nothing", async () => {
    const response = await t.app.api.inject({
      method: "POST",
      url: `/api/agents/${t.agentId}/channels`,
      headers: t.org.auth,
      payload: {
        type: "slack",
        config: { botToken: "xoxb-not-a-real-token", signingSecret: SIGNING_SECRET },
      },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatch(/Slack refused.*invalid_auth/);
    const [check] = t.slack.callsTo("auth.test");
    expect(check!.headers.authorization).toBe("Bearer xoxb-not-a-real-token");
    const list = await t.app.api.inject({
      method: "GET",
      url: `/api/agents/${t.agentId}/channels`,
      headers: t.org.auth,
    });
    expect(list.json().data.map((row: ChannelBody) => row.id)).toEqual([channel.id]);
  });

  test("answers the signed url_verification with its challenge", async () => {
    const challenge = "3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P";
    const response = await send(slackUrlVerification(challenge));
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toMatch(/^application\/json/);
    expect(response.json()).toEqual({ challenge });
  });

  test("refuses a bad or missing signature, and a correctly signed old request, with 401", async () => {
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
      expect((await postInbound(t.app, channel, raw, headers)).statusCode).toBe(401);
    }
    expect(await slackConversations()).toEqual([]);
    expect((await getChannel(channel.id)).json().lastEventAt).toBeNull();
  });

  test("answers a mention once in its thread, without the mention, whatever Slack retries", async () => {
    t.fake.script({ text: "We open at nine." });
    const ts = nextTs();
    const body = mention("When do you open?", { ts });
    expect((await send(body)).statusCode).toBe(200);
    expect((await send(body, { retry: 1 })).statusCode).toBe(200);
    await t.slack.waitForCalls("chat.postMessage", 1);
    await nothingMoreHappens();
    expect(chatRequests()).toHaveLength(1);
    expect(postBodies()).toEqual([{ channel: SUPPORT, thread_ts: ts, text: "We open at nine." }]);
    expect(posts()[0]!.headers.authorization).toBe(`Bearer ${SLACK_TOKEN}`);

    const [conversation] = await slackConversations();
    expect(conversation!.channelExternalId).toBe(`${SUPPORT}:${ts}`);
    const messages = await messagesOf(conversation!.id);
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

  test("keeps two mentions in one thread in one conversation", async () => {
    const [thread] = await slackConversations();
    const rootTs = thread!.channelExternalId!.split(":")[1]!;
    t.fake.script({ text: "And on Sundays at ten." });
    expect((await send(mention("And on Sundays?", { threadTs: rootTs }))).statusCode).toBe(200);
    await t.slack.waitForCalls("chat.postMessage", 1);
    expect(postBodies()).toEqual([
      { channel: SUPPORT, thread_ts: rootTs, text: "And on Sundays at ten." },
    ]);
    const conversations = await slackConversations();
    expect(conversations).toHaveLength(1);
    const messages = await messagesOf(conversations[0]!.id);
    expect(messages.map((message) => message.text)).toEqual([
      "When do you open?",
      "We open at nine.",
      "And on Sundays?",
      "And on Sundays at ten.",
    ]);
  });

  test("answers a direct message in its DM", async () => {
    t.fake.script({ text: "Hello Ada." });
    const body = slackDirectMessage({
      ...envelope(),
      channel: "D0DIRECT1",
      user: CUSTOMER,
      text: "Hello?",
      ts: nextTs(),
    });
    expect((await send(body)).statusCode).toBe(200);
    await t.slack.waitForCalls("chat.postMessage", 1);
    expect(postBodies()).toEqual([{ channel: "D0DIRECT1", text: "Hello Ada." }]);
    const direct = (await slackConversations()).find(
      (row) => row.channelExternalId === "D0DIRECT1",
    );
    expect(direct).toBeDefined();
  });

  test("reads Slack's escaped &, < and > as text, and escapes them in the answer", async () => {
    // Slack escapes its control characters in what it sends, and reads them unescaped in what
    // it receives: an answer's "<!channel>" would notify everyone in the channel.
    t.fake.script({ text: "Yes <!channel> & all: 1 < 2 > 0" });
    const ts = nextTs();
    const body = mention("Is Q&amp;A open &lt;today&gt;? &amp;lt; is literal", { ts });
    expect((await send(body)).statusCode).toBe(200);
    await t.slack.waitForCalls("chat.postMessage", 1);
    expect(postBodies()).toEqual([
      {
        channel: SUPPORT,
        thread_ts: ts,
        text: "Yes &lt;!channel&gt; &amp; all: 1 &lt; 2 &gt; 0",
      },
    ]);
    expect(JSON.stringify(chatRequests()[0]!.body)).toContain(
      "Is Q&A open <today>? &lt; is literal",
    );
    const conversation = (await slackConversations()).find(
      (row) => row.channelExternalId === `${SUPPORT}:${ts}`,
    );
    const messages = await messagesOf(conversation!.id);
    expect(messages.map((message) => message.text)).toEqual([
      "Is Q&A open <today>? &lt; is literal",
      "Yes <!channel> & all: 1 < 2 > 0",
    ]);
  });

  test("never answers bots, its own messages, edits or other subtypes", async () => {
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
      expect((await send(body)).statusCode).toBe(200);
    }
    await nothingMoreHappens();
    expect(posts()).toEqual([]);
    expect(chatRequests()).toHaveLength(0);
  });

  test("retries a post answered 429 after Retry-After and delivers it once", async () => {
    t.slack.failNext("chat.postMessage", { status: 429, retryAfterSeconds: 1 });
    t.fake.script({ text: "Sorry for the wait." });
    await send(mention("Are you there?"));
    const calls = await t.slack.waitForCalls("chat.postMessage", 2, 20_000);
    expect(calls[1]!.at - calls[0]!.at).toBeGreaterThanOrEqual(950);
    const conversation = (await slackConversations()).find((row) =>
      row.channelExternalId?.startsWith(`${SUPPORT}:`),
    );
    expect(conversation).toBeDefined();
    await eventually(async () => {
      const answers = (
        await Promise.all((await slackConversations()).map((row) => messagesOf(row.id)))
      )
        .flat()
        .filter((message) => message.text === "Sorry for the wait.");
      expect(answers).toHaveLength(1);
      expect(answers[0]!.delivery?.status).toBe("sent");
    });
    expect(t.slack.callsTo("chat.postMessage")).toHaveLength(2);
  });

  test("shows when Slack last reached the channel", async () => {
    const response = await getChannel(channel.id);
    expect(response.statusCode).toBe(200);
    expect(response.json().lastEventAt).toEqual(expect.any(String));
  });

  test("goes to status error when Slack refuses the token at send time, and back with a working one", async () => {
    t.slack.failNext("chat.postMessage", {
      status: 200,
      body: { ok: false, error: "invalid_auth" },
    });
    t.fake.script({ text: "You will not see this." });
    await send(mention("Still there?"));
    await t.slack.waitForCalls("chat.postMessage", 1);
    const broken = await eventually(async () => {
      const body = (await getChannel(channel.id)).json();
      expect(body.status).toBe("error");
      return body;
    });
    expect(broken.lastError).toBe("Slack chat.postMessage: invalid_auth");

    const patched = await t.app.api.inject({
      method: "PATCH",
      url: `/api/channels/${channel.id}`,
      headers: t.org.auth,
      payload: { config: { botToken: SLACK_TOKEN } },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json()).toMatchObject({ status: "active", lastError: null });
    expect(t.slack.callsTo("auth.test")).toHaveLength(1);
  });
});
