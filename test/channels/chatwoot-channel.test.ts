import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import {
  type ChatwootApi,
  chatwootConversationEvent,
  chatwootMessageCreated,
  startChatwootApi,
} from "../fakes/chatwoot-api.ts";
import { chatwootSignatureHeaders, chatwootWebhookBody } from "../fakes/platform-signatures.ts";
import { createAgent, createFundedOrganization } from "../harness/agents.ts";
import { startTestApp, type TestApp } from "../harness/app.ts";
import {
  type ChannelBody,
  type ChannelTestApp,
  conversationsOf,
  createChannel,
  eventually,
  postInbound,
  startChannelTestApp,
} from "./channel-helpers.ts";

const ACCOUNT_ID = 7;
const BOT_TOKEN = "cw-agent-bot-token-of-the-support-bot";
const BOT_SECRET = "b0t-secret-from-chatwoot-agent-bot-settings";

let t: ChannelTestApp;
let chatwoot: ChatwootApi;
let channel: ChannelBody;
beforeAll(async () => {
  chatwoot = await startChatwootApi({ accountId: String(ACCOUNT_ID), tokens: [BOT_TOKEN] });
  t = await startChannelTestApp();
  channel = await createChannel(t, {
    type: "chatwoot",
    name: "Support inbox",
    config: { baseUrl: `${chatwoot.baseUrl}/`, accountId: ACCOUNT_ID, apiAccessToken: BOT_TOKEN },
  });
});
afterAll(async () => {
  await t.close();
  await chatwoot.close();
});
beforeEach(() => {
  chatwoot.calls.length = 0;
  t.fake.requests.length = 0;
});

let nextMessageId = 5_000;
const contact = { id: 41, name: "Ada Lovelace", email: "ada@example.com" };
function incoming(
  conversationId: number,
  content: string,
  extra: Partial<Parameters<typeof chatwootMessageCreated>[0]> = {},
) {
  nextMessageId += 1;
  return chatwootMessageCreated({
    messageId: nextMessageId,
    conversationId,
    accountId: ACCOUNT_ID,
    content,
    contact,
    ...extra,
  });
}
/** Posts the event as Chatwoot serializes it, signed when a secret is given. */
function deliver(
  payload: unknown,
  options: { to?: Pick<ChannelBody, "webhookUrl">; secret?: string; at?: number } = {},
) {
  const body = chatwootWebhookBody(payload);
  const at = options.at ?? Math.floor(Date.now() / 1000);
  return postInbound(
    t.app,
    options.to ?? channel,
    body,
    options.secret ? chatwootSignatureHeaders(options.secret, at, body) : {},
  );
}
type MessageBody = { content: string; message_type: string; private: boolean };
const postsTo = (conversationId: number) =>
  chatwoot
    .callsTo("messages")
    .filter((call) => call.path.endsWith(`/conversations/${conversationId}/messages`))
    .map((call) => call.body as MessageBody);
const textsTo = (conversationId: number) => postsTo(conversationId).map((body) => body.content);
const chatRequests = () =>
  t.fake.requests.filter((request) => request.path === "/v1/chat/completions");
const nothingMoreHappens = () => new Promise((resolve) => setTimeout(resolve, 1_000));

async function conversationOf(conversationId: number) {
  const found = (await conversationsOf(t)).data.find(
    (row) => row.channelExternalId === String(conversationId),
  );
  if (!found) return undefined;
  const response = await t.app.api.inject({
    method: "GET",
    url: `/api/conversations/${found.id}?agentId=${t.agentId}`,
    headers: t.org.auth,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as {
    id: string;
    channel: string;
    status: string;
    aiEnabled: boolean;
    contact: Record<string, unknown> | null;
    messages: Array<{ from: string; text: string; delivery?: { status: string } }>;
  };
}
const createBody = (config: Record<string, unknown>) =>
  t.app.api.inject({
    method: "POST",
    url: `/api/agents/${t.agentId}/channels`,
    headers: t.org.auth,
    payload: { type: "chatwoot", config },
  });

describe("a chatwoot channel", () => {
  test("is created after Chatwoot answers at its URL, its token masked", async () => {
    expect(channel).toMatchObject({
      type: "chatwoot",
      name: "Support inbox",
      status: "active",
      webhookUrl: `https://agents.example.com/channels/chatwoot/${channel.id}`,
      config: {
        baseUrl: chatwoot.baseUrl,
        accountId: String(ACCOUNT_ID),
        apiAccessToken: `••••${BOT_TOKEN.slice(-4)}`,
      },
    });
    expect(JSON.stringify(channel)).not.toContain(BOT_TOKEN);
  });

  test.each([
    ["no baseUrl", { accountId: 1, apiAccessToken: "x" }, "body.config.baseUrl"],
    [
      "a baseUrl that is not a URL",
      { baseUrl: "chatwoot", accountId: 1, apiAccessToken: "x" },
      "body.config.baseUrl",
    ],
    [
      "an ftp baseUrl",
      { baseUrl: "ftp://chat.example.com", accountId: 1, apiAccessToken: "x" },
      "body.config.baseUrl",
    ],
    [
      "an account id that is not a number",
      { baseUrl: "https://chat.example.com", accountId: "acme", apiAccessToken: "x" },
      "body.config.accountId",
    ],
    [
      "no token",
      { baseUrl: "https://chat.example.com", accountId: 1 },
      "body.config.apiAccessToken",
    ],
  ])(
    "refuses a config with %s with 400 naming the field, calling nothing",
    async (_, config, path) => {
      const response = await createBody(config);
      expect(response.statusCode).toBe(400);
      expect(response.json().details).toEqual(
        expect.arrayContaining([expect.objectContaining({ path })]),
      );
      expect(chatwoot.calls).toHaveLength(0);
    },
  );

  test("refuses a URL where Chatwoot does not answer as Chatwoot (400), or nothing answers (502)", async () => {
    const notChatwoot = await createBody({
      baseUrl: `${chatwoot.baseUrl}/not-here`,
      accountId: ACCOUNT_ID,
      apiAccessToken: BOT_TOKEN,
    });
    expect(notChatwoot.statusCode).toBe(400);
    expect(notChatwoot.json().details).toEqual([
      expect.objectContaining({ path: "body.config.baseUrl" }),
    ]);
    const closed = await createBody({
      baseUrl: "http://127.0.0.1:9",
      accountId: ACCOUNT_ID,
      apiAccessToken: BOT_TOKEN,
    });
    expect(closed.statusCode).toBe(502);
    expect(closed.json().type).toBe("BAD_GATEWAY");
  });

  test("answers an incoming message once through Chatwoot's API, however often it is delivered", async () => {
    t.fake.script({ text: "Your order left our warehouse today." });
    const event = incoming(301, "Where is my order?");
    for (let attempt = 0; attempt < 3; attempt += 1) {
      expect((await deliver(event)).statusCode).toBe(200);
    }
    await chatwoot.waitForCalls("messages", 1);
    await nothingMoreHappens();
    expect(chatRequests()).toHaveLength(1);
    const [call] = chatwoot.callsTo("messages");
    expect(call!.path).toBe(`/api/v1/accounts/${ACCOUNT_ID}/conversations/301/messages`);
    expect(call!.headers.api_access_token).toBe(BOT_TOKEN);
    expect(call!.body).toEqual({
      content: "Your order left our warehouse today.",
      message_type: "outgoing",
      private: false,
    });
    const conversation = (await conversationOf(301))!;
    expect(conversation.channel).toBe("chatwoot");
    expect(conversation.messages.map((message) => [message.from, message.text])).toEqual([
      ["human", "Where is my order?"],
      ["agent", "Your order left our warehouse today."],
    ]);
    expect(conversation.messages[1]!.delivery).toMatchObject({ status: "sent" });
    expect(conversation.contact).toMatchObject({
      firstName: "Ada",
      lastName: "Lovelace",
      email: "ada@example.com",
    });
  });

  test("never answers the bot's own or agents' messages, private notes, activities or other events", async () => {
    const events = [
      // What the bot posted comes back as an outgoing message.
      incoming(302, "Your order left our warehouse today.", { messageType: "outgoing" }),
      incoming(302, "Customer seems upset", { messageType: "outgoing", isPrivate: true }),
      incoming(302, "Conversation was marked resolved by John", { messageType: "activity" }),
      incoming(302, "Please rate us", { messageType: "template" }),
      incoming(302, "", {}),
      chatwootConversationEvent("conversation_opened", 302),
      chatwootConversationEvent("webwidget_triggered", 302),
      // Another account of the same instance is not this channel's.
      chatwootMessageCreated({
        messageId: 99_999,
        conversationId: 302,
        accountId: 8,
        content: "Am I in the right place?",
        contact,
      }),
    ];
    for (const event of events) expect((await deliver(event)).statusCode).toBe(200);
    await nothingMoreHappens();
    expect(chatwoot.calls).toHaveLength(0);
    expect(chatRequests()).toHaveLength(0);
    expect(await conversationOf(302)).toBeUndefined();
  });

  test("keeps quiet while a person of the account is assigned the conversation", async () => {
    const assignee = { id: 1, name: "John" };
    const event = incoming(303, "Are you still there?", { assignee, status: "open" });
    expect((await deliver(event)).statusCode).toBe(200);
    await nothingMoreHappens();
    expect(chatRequests()).toHaveLength(0);
    expect(chatwoot.calls).toHaveLength(0);
    // Unassigned again, the conversation is the bot's.
    expect((await deliver(incoming(303, "Hello?"))).statusCode).toBe(200);
    await eventually(() => expect(textsTo(303)).toEqual(["Answer: Hello?"]));
  });

  test("hands a conversation to Chatwoot's agents when the customer asks for a person, then keeps quiet", async () => {
    expect((await deliver(incoming(304, "I want to talk to a human"))).statusCode).toBe(200);
    await eventually(() => expect(textsTo(304)).toHaveLength(1));
    const toggles = chatwoot.callsTo("toggle_status");
    expect(toggles).toHaveLength(1);
    expect(toggles[0]!.path).toBe(`/api/v1/accounts/${ACCOUNT_ID}/conversations/304/toggle_status`);
    expect(toggles[0]!.body).toEqual({ status: "open" });
    expect(toggles[0]!.headers.api_access_token).toBe(BOT_TOKEN);
    // Opened before the customer reads the handover.
    expect(toggles[0]!.at).toBeLessThanOrEqual(chatwoot.callsTo("messages")[0]!.at);
    expect(chatwoot.statuses.get("304")).toBe("open");
    const conversation = (await conversationOf(304))!;
    expect(conversation).toMatchObject({ status: "HUMAN_REQUESTED", aiEnabled: false });

    t.fake.requests.length = 0;
    expect((await deliver(incoming(304, "Hello? Anyone?"))).statusCode).toBe(200);
    await nothingMoreHappens();
    expect(chatRequests()).toHaveLength(0);
    expect(textsTo(304)).toHaveLength(1);
  });

  test("hands over when the model calls request_human", async () => {
    t.fake.script(
      { toolCalls: [{ name: "request_human", arguments: { reason: "damaged goods" } }] },
      { text: "A colleague will take it from here." },
    );
    expect((await deliver(incoming(305, "My lamp arrived broken"))).statusCode).toBe(200);
    await eventually(() => expect(textsTo(305)).toEqual(["A colleague will take it from here."]));
    await eventually(() => expect(chatwoot.callsTo("toggle_status")).toHaveLength(1));
    expect((await conversationOf(305))!).toMatchObject({
      status: "HUMAN_REQUESTED",
      aiEnabled: false,
    });
  });

  test("sends an operator's reply written in agentdesk through Chatwoot", async () => {
    expect((await deliver(incoming(306, "Hi"))).statusCode).toBe(200);
    await eventually(() => expect(textsTo(306)).toHaveLength(1));
    const conversation = (await conversationOf(306))!;
    const sent = await t.app.api.inject({
      method: "POST",
      url: `/api/conversations/${conversation.id}/messages`,
      headers: t.org.auth,
      payload: { text: "Sam here, from the team: I am looking into it." },
    });
    expect(sent.statusCode, sent.body).toBe(201);
    await eventually(() =>
      expect(textsTo(306)).toEqual([
        "Answer: Hi",
        "Sam here, from the team: I am looking into it.",
      ]),
    );
  });

  test("answers 404 to a disabled channel and to an unknown one", async () => {
    const other = await createChannel(t, {
      type: "chatwoot",
      config: { baseUrl: chatwoot.baseUrl, accountId: ACCOUNT_ID, apiAccessToken: BOT_TOKEN },
    });
    await t.app.api.inject({
      method: "PATCH",
      url: `/api/channels/${other.id}`,
      headers: t.org.auth,
      payload: { enabled: false },
    });
    expect((await deliver(incoming(307, "Anyone?"), { to: other })).statusCode).toBe(404);
    const unknown = { webhookUrl: "https://agents.example.com/channels/chatwoot/no-such-channel" };
    expect((await deliver(incoming(307, "Anyone?"), { to: unknown })).statusCode).toBe(404);
    expect(await conversationOf(307)).toBeUndefined();
  });
});

describe("a chatwoot channel with the Agent Bot's secret", () => {
  let signed: ChannelBody;
  beforeAll(async () => {
    signed = await createChannel(t, {
      type: "chatwoot",
      config: {
        baseUrl: chatwoot.baseUrl,
        accountId: String(ACCOUNT_ID),
        apiAccessToken: BOT_TOKEN,
        webhookSecret: BOT_SECRET,
      },
    });
  });

  test("shows the secret masked", () => {
    expect(signed.config.webhookSecret).toBe(`••••${BOT_SECRET.slice(-4)}`);
  });

  test("refuses an unsigned, wrongly signed, stale or other secret's event with 401 and stores nothing", async () => {
    const event = incoming(401, "Is <this> & that signed?");
    const now = Math.floor(Date.now() / 1000);
    const body = chatwootWebhookBody(event);
    const refused: Array<Record<string, string>> = [
      {},
      { ...chatwootSignatureHeaders(BOT_SECRET, now, body), "x-chatwoot-signature": "sha256=00" },
      chatwootSignatureHeaders(BOT_SECRET, now - 600, body),
      chatwootSignatureHeaders("another-bots-secret", now, body),
      // Over the parsed body written again, not the bytes sent.
      chatwootSignatureHeaders(BOT_SECRET, now, JSON.stringify(event)),
    ];
    for (const headers of refused) {
      expect((await postInbound(t.app, signed, body, headers)).statusCode).toBe(401);
    }
    await nothingMoreHappens();
    expect(chatRequests()).toHaveLength(0);
    expect(await conversationOf(401)).toBeUndefined();
  });

  test("answers a correctly signed event, even with characters Rails escapes", async () => {
    const event = incoming(402, "Is <b>this</b> & that signed?");
    expect((await deliver(event, { to: signed, secret: BOT_SECRET })).statusCode).toBe(200);
    await eventually(() => expect(textsTo(402)).toEqual(["Answer: Is <b>this</b> & that signed?"]));
  });
});

describe("a production server", () => {
  let production: TestApp;
  beforeAll(async () => {
    production = await startTestApp({ env: { NODE_ENV: "production" } });
  });
  afterAll(() => production.close());

  test("refuses a Chatwoot baseUrl on a private address with 400, and never calls it", async () => {
    const org = await createFundedOrganization(production, "Prod");
    const agent = await createAgent(production, org);
    for (const baseUrl of [chatwoot.baseUrl, "http://10.0.0.1", "http://169.254.169.254"]) {
      const response = await production.api.inject({
        method: "POST",
        url: `/api/agents/${agent.id}/channels`,
        headers: org.auth,
        payload: {
          type: "chatwoot",
          config: { baseUrl, accountId: ACCOUNT_ID, apiAccessToken: BOT_TOKEN },
        },
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({
        type: "INVALID_REQUEST",
        error: expect.stringContaining("the address is not public"),
        details: [{ path: "body.config.baseUrl" }],
      });
      expect(response.body).not.toMatch(/loopback|private|metadata address/);
    }
    expect(chatwoot.calls).toHaveLength(0);
    const listed = await production.api.inject({
      method: "GET",
      url: `/api/agents/${agent.id}/channels`,
      headers: org.auth,
    });
    expect(listed.json().data).toEqual([]);
  });
});
