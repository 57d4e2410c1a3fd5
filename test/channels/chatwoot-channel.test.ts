import { describe, expect } from "vitest";
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
  type ChannelFixtures,
  channelTest,
  chatRequests,
  conversationsOf,
  createChannel,
  eventually,
  postInbound,
} from "./channel-helpers.ts";

const ACCOUNT_ID = 7;
const BOT_TOKEN = "cw-agent-bot-token-of-the-support-bot";
const BOT_SECRET = "b0t-secret-from-chatwoot-agent-bot-settings";

/**
 * `channelTest` with
 * - `chatwoot`: a fake Chatwoot on 127.0.0.1, started once per file;
 * - `production`: an app in production mode, started once per file when a test asks for it.
 */
const test = channelTest()
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from it
  .extend("chatwoot", { scope: "file" }, async ({}, { onCleanup }) => {
    const chatwoot = await startChatwootApi({ accountId: String(ACCOUNT_ID), tokens: [BOT_TOKEN] });
    onCleanup(() => chatwoot.close());
    return chatwoot;
  })
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from it
  .extend("production", { scope: "file" }, async ({}, { onCleanup }) => {
    const production = await startTestApp({ env: { NODE_ENV: "production" } });
    onCleanup(() => production.close());
    return production;
  });

let channel: ChannelBody;
test.beforeAll(async ({ chatwoot, app, org, agent }) => {
  channel = await createChannel(
    { app, org, agent },
    {
      type: "chatwoot",
      name: "Support inbox",
      config: { baseUrl: `${chatwoot.baseUrl}/`, accountId: ACCOUNT_ID, apiAccessToken: BOT_TOKEN },
    },
  );
});
test.beforeEach(({ chatwoot }) => {
  chatwoot.calls.length = 0;
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
  app: TestApp,
  payload: unknown,
  options: { to?: Pick<ChannelBody, "webhookUrl">; secret?: string; at?: number } = {},
) {
  const body = chatwootWebhookBody(payload);
  const at = options.at ?? Math.floor(Date.now() / 1000);
  return postInbound(
    app,
    options.to ?? channel,
    body,
    options.secret ? chatwootSignatureHeaders(options.secret, at, body) : {},
  );
}
type MessageBody = { content: string; message_type: string; private: boolean };
const postsTo = (chatwoot: ChatwootApi, conversationId: number) =>
  chatwoot
    .callsTo("messages")
    .filter((call) => call.path.endsWith(`/conversations/${conversationId}/messages`))
    .map((call) => call.body as MessageBody);
const textsTo = (chatwoot: ChatwootApi, conversationId: number) =>
  postsTo(chatwoot, conversationId).map((body) => body.content);
const nothingMoreHappens = () => new Promise((resolve) => setTimeout(resolve, 1_000));

async function conversationOf({ app, org, agent }: ChannelFixtures, conversationId: number) {
  const found = (await conversationsOf({ app, org, agent })).data.find(
    (row) => row.channelExternalId === String(conversationId),
  );
  if (!found) return undefined;
  const response = await app.api.inject({
    method: "GET",
    url: `/api/conversations/${found.id}?agentId=${agent.id}`,
    headers: org.auth,
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
const createBody = ({ app, org, agent }: ChannelFixtures, config: Record<string, unknown>) =>
  app.api.inject({
    method: "POST",
    url: `/api/agents/${agent.id}/channels`,
    headers: org.auth,
    payload: { type: "chatwoot", config },
  });

describe("a chatwoot channel", () => {
  test("is created after Chatwoot answers at its URL, its token masked", async ({ chatwoot }) => {
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

  test.for<[string, Record<string, unknown>, string]>([
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
    async ([, config, path], { app, org, agent, chatwoot }) => {
      const response = await createBody({ app, org, agent }, config);
      expect(response.statusCode).toBe(400);
      expect(response.json().details).toEqual(
        expect.arrayContaining([expect.objectContaining({ path })]),
      );
      expect(chatwoot.calls).toHaveLength(0);
    },
  );

  test("refuses a URL where Chatwoot does not answer as Chatwoot (400), or nothing answers (502)", async ({
    app,
    org,
    agent,
    chatwoot,
  }) => {
    const notChatwoot = await createBody(
      { app, org, agent },
      {
        baseUrl: `${chatwoot.baseUrl}/not-here`,
        accountId: ACCOUNT_ID,
        apiAccessToken: BOT_TOKEN,
      },
    );
    expect(notChatwoot.statusCode).toBe(400);
    expect(notChatwoot.json().details).toEqual([
      expect.objectContaining({ path: "body.config.baseUrl" }),
    ]);
    const closed = await createBody(
      { app, org, agent },
      {
        baseUrl: "http://127.0.0.1:9",
        accountId: ACCOUNT_ID,
        apiAccessToken: BOT_TOKEN,
      },
    );
    expect(closed.statusCode).toBe(502);
    expect(closed.json().type).toBe("BAD_GATEWAY");
  });

  test("answers an incoming message once through Chatwoot's API, however often it is delivered", async ({
    app,
    org,
    agent,
    fake,
    chatwoot,
  }) => {
    fake.script({ text: "Your order left our warehouse today." });
    const event = incoming(301, "Where is my order?");
    for (let attempt = 0; attempt < 3; attempt += 1) {
      expect((await deliver(app, event)).statusCode).toBe(200);
    }
    await chatwoot.waitForCalls("messages", 1);
    await nothingMoreHappens();
    expect(chatRequests(fake)).toHaveLength(1);
    const [call] = chatwoot.callsTo("messages");
    expect(call!.path).toBe(`/api/v1/accounts/${ACCOUNT_ID}/conversations/301/messages`);
    expect(call!.headers.api_access_token).toBe(BOT_TOKEN);
    expect(call!.body).toEqual({
      content: "Your order left our warehouse today.",
      message_type: "outgoing",
      private: false,
    });
    const conversation = (await conversationOf({ app, org, agent }, 301))!;
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

  test("never answers the bot's own or agents' messages, private notes, activities or other events", async ({
    app,
    org,
    agent,
    fake,
    chatwoot,
  }) => {
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
    for (const event of events) expect((await deliver(app, event)).statusCode).toBe(200);
    await nothingMoreHappens();
    expect(chatwoot.calls).toHaveLength(0);
    expect(chatRequests(fake)).toHaveLength(0);
    expect(await conversationOf({ app, org, agent }, 302)).toBeUndefined();
  });

  test("keeps quiet while a person of the account is assigned the conversation", async ({
    app,
    fake,
    chatwoot,
  }) => {
    const assignee = { id: 1, name: "John" };
    const event = incoming(303, "Are you still there?", { assignee, status: "open" });
    expect((await deliver(app, event)).statusCode).toBe(200);
    await nothingMoreHappens();
    expect(chatRequests(fake)).toHaveLength(0);
    expect(chatwoot.calls).toHaveLength(0);
    // Unassigned again, the conversation is the bot's.
    expect((await deliver(app, incoming(303, "Hello?"))).statusCode).toBe(200);
    await eventually(() => expect(textsTo(chatwoot, 303)).toEqual(["Answer: Hello?"]));
  });

  test("hands a conversation to Chatwoot's agents when the customer asks for a person, then keeps quiet", async ({
    app,
    org,
    agent,
    fake,
    chatwoot,
  }) => {
    expect((await deliver(app, incoming(304, "I want to talk to a human"))).statusCode).toBe(200);
    await eventually(() => expect(textsTo(chatwoot, 304)).toHaveLength(1));
    const toggles = chatwoot.callsTo("toggle_status");
    expect(toggles).toHaveLength(1);
    expect(toggles[0]!.path).toBe(`/api/v1/accounts/${ACCOUNT_ID}/conversations/304/toggle_status`);
    expect(toggles[0]!.body).toEqual({ status: "open" });
    expect(toggles[0]!.headers.api_access_token).toBe(BOT_TOKEN);
    // Opened before the customer reads the handover.
    expect(toggles[0]!.at).toBeLessThanOrEqual(chatwoot.callsTo("messages")[0]!.at);
    expect(chatwoot.statuses.get("304")).toBe("open");
    const conversation = (await conversationOf({ app, org, agent }, 304))!;
    expect(conversation).toMatchObject({ status: "HUMAN_REQUESTED", aiEnabled: false });

    fake.requests.length = 0;
    expect((await deliver(app, incoming(304, "Hello? Anyone?"))).statusCode).toBe(200);
    await nothingMoreHappens();
    expect(chatRequests(fake)).toHaveLength(0);
    expect(textsTo(chatwoot, 304)).toHaveLength(1);
  });

  test("hands over when the model calls request_human", async ({
    app,
    org,
    agent,
    fake,
    chatwoot,
  }) => {
    fake.script(
      { toolCalls: [{ name: "request_human", arguments: { reason: "damaged goods" } }] },
      { text: "A colleague will take it from here." },
    );
    expect((await deliver(app, incoming(305, "My lamp arrived broken"))).statusCode).toBe(200);
    await eventually(() =>
      expect(textsTo(chatwoot, 305)).toEqual(["A colleague will take it from here."]),
    );
    await eventually(() => expect(chatwoot.callsTo("toggle_status")).toHaveLength(1));
    expect((await conversationOf({ app, org, agent }, 305))!).toMatchObject({
      status: "HUMAN_REQUESTED",
      aiEnabled: false,
    });
  });

  test("sends an operator's reply written in agentdesk through Chatwoot", async ({
    app,
    org,
    agent,
    chatwoot,
  }) => {
    expect((await deliver(app, incoming(306, "Hi"))).statusCode).toBe(200);
    await eventually(() => expect(textsTo(chatwoot, 306)).toHaveLength(1));
    const conversation = (await conversationOf({ app, org, agent }, 306))!;
    const sent = await app.api.inject({
      method: "POST",
      url: `/api/conversations/${conversation.id}/messages`,
      headers: org.auth,
      payload: { text: "Sam here, from the team: I am looking into it." },
    });
    expect(sent.statusCode, sent.body).toBe(201);
    await eventually(() =>
      expect(textsTo(chatwoot, 306)).toEqual([
        "Answer: Hi",
        "Sam here, from the team: I am looking into it.",
      ]),
    );
  });

  test("answers 404 to a disabled channel and to an unknown one", async ({
    app,
    org,
    agent,
    chatwoot,
  }) => {
    const other = await createChannel(
      { app, org, agent },
      {
        type: "chatwoot",
        config: { baseUrl: chatwoot.baseUrl, accountId: ACCOUNT_ID, apiAccessToken: BOT_TOKEN },
      },
    );
    await app.api.inject({
      method: "PATCH",
      url: `/api/channels/${other.id}`,
      headers: org.auth,
      payload: { enabled: false },
    });
    expect((await deliver(app, incoming(307, "Anyone?"), { to: other })).statusCode).toBe(404);
    const unknown = { webhookUrl: "https://agents.example.com/channels/chatwoot/no-such-channel" };
    expect((await deliver(app, incoming(307, "Anyone?"), { to: unknown })).statusCode).toBe(404);
    expect(await conversationOf({ app, org, agent }, 307)).toBeUndefined();
  });
});

describe("a chatwoot channel with the Agent Bot's secret", () => {
  let signed: ChannelBody;
  test.beforeAll(async ({ app, org, agent, chatwoot }) => {
    signed = await createChannel(
      { app, org, agent },
      {
        type: "chatwoot",
        config: {
          baseUrl: chatwoot.baseUrl,
          accountId: String(ACCOUNT_ID),
          apiAccessToken: BOT_TOKEN,
          webhookSecret: BOT_SECRET,
        },
      },
    );
  });

  test("shows the secret masked", () => {
    expect(signed.config.webhookSecret).toBe(`••••${BOT_SECRET.slice(-4)}`);
  });

  test("refuses an unsigned, wrongly signed, stale or other secret's event with 401 and stores nothing", async ({
    app,
    org,
    agent,
    fake,
  }) => {
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
      expect((await postInbound(app, signed, body, headers)).statusCode).toBe(401);
    }
    await nothingMoreHappens();
    expect(chatRequests(fake)).toHaveLength(0);
    expect(await conversationOf({ app, org, agent }, 401)).toBeUndefined();
  });

  test("answers a correctly signed event, even with characters Rails escapes", async ({
    app,
    chatwoot,
  }) => {
    const event = incoming(402, "Is <b>this</b> & that signed?");
    expect((await deliver(app, event, { to: signed, secret: BOT_SECRET })).statusCode).toBe(200);
    await eventually(() =>
      expect(textsTo(chatwoot, 402)).toEqual(["Answer: Is <b>this</b> & that signed?"]),
    );
  });
});

describe("a production server", () => {
  test("refuses a Chatwoot baseUrl on a private address with 400, and never calls it", async ({
    chatwoot,
    production,
  }) => {
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
