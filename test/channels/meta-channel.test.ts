import { eq, sql } from "drizzle-orm";
import { describe, expect } from "vitest";
import { channels } from "../../src/db/schema/index.ts";
import type { GraphApi } from "../fakes/graph-api.ts";
import {
  messengerDeliveryWebhook,
  messengerEchoWebhook,
  messengerMid,
  messengerReadWebhook,
  messengerTextWebhook,
} from "../fakes/messenger-webhooks.ts";
import { metaSignature, metaWebhookBody } from "../fakes/platform-signatures.ts";
import type { TestApp } from "../harness/app.ts";
import {
  type ChannelBody,
  type ChannelFixtures,
  channelTest,
  chatRequests,
  conversationsOf,
  createChannel,
  eventually,
  META_PAGE,
  postInbound,
} from "./channel-helpers.ts";

const APP_SECRET = "9a8b7c6d5e4f3a2b1c0d9e8f5f1c0e2d";
type Account = { object: "page" | "instagram"; accountId: string };
const PAGE: Account = { object: "page", accountId: META_PAGE.id };
const INSTAGRAM: Account = { object: "instagram", accountId: META_PAGE.instagramAccountId };

const test = channelTest();

let channel: ChannelBody;
test.beforeAll(async ({ app, org, agent }) => {
  channel = await createChannel(
    { app, org, agent },
    {
      type: "meta",
      name: "Acme on Messenger",
      config: {
        pageId: META_PAGE.id,
        pageAccessToken: META_PAGE.accessToken,
        appSecret: APP_SECRET,
      },
    },
  );
});
test.beforeEach(({ graph }) => {
  graph.calls.length = 0;
});

/** Signs the body as Meta does: over its bytes, serialized the way Meta serializes them. */
function send(app: TestApp, payload: unknown, to: Pick<ChannelBody, "webhookUrl"> = channel) {
  const body = metaWebhookBody(payload);
  return postInbound(app, to, body, { "x-hub-signature-256": metaSignature(APP_SECRET, body) });
}
function textFrom(senderId: string, text: string, timestamp?: number, account = PAGE) {
  return messengerTextWebhook({
    ...account,
    senderId,
    mid: messengerMid(),
    text,
    ...(timestamp === undefined ? {} : { timestamp }),
  });
}
type SendBody = { recipient: { id: string }; messaging_type?: string; message?: { text: string } };
const sends = (graph: GraphApi) =>
  graph.callsTo("messages").filter((call) => (call.body as SendBody).message !== undefined);
const sentTo = (graph: GraphApi, recipient: string) =>
  sends(graph)
    .map((call) => call.body as SendBody)
    .filter((body) => body.recipient.id === recipient)
    .map((body) => body.message!.text);
const nothingMoreHappens = () => new Promise((resolve) => setTimeout(resolve, 1_000));

async function conversationOf({ app, org, agent }: ChannelFixtures, externalId: string) {
  const found = (await conversationsOf({ app, org, agent })).data.find(
    (row) => row.channelExternalId === externalId,
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
    channelExternalId: string;
    contact: Record<string, unknown> | null;
    messages: Array<{
      from: string;
      text: string;
      delivery?: { status: string; platformMessageId: string | null; error: string | null };
    }>;
  };
}
const getChannel = ({ app, org }: Pick<ChannelFixtures, "app" | "org">, id: string) =>
  app.api.inject({ method: "GET", url: `/api/channels/${id}`, headers: org.auth });
const channelCount = async ({ app, org, agent }: ChannelFixtures) =>
  (
    await app.api.inject({
      method: "GET",
      url: `/api/agents/${agent.id}/channels`,
      headers: org.auth,
    })
  ).json().data.length as number;

describe("a meta channel", () => {
  test("checks the page token, subscribes the page, and shows the page with a generated verify token", async ({
    app,
    org,
    graph,
  }) => {
    expect(channel).toMatchObject({
      type: "meta",
      name: "Acme on Messenger",
      status: "active",
      webhookUrl: `https://agents.example.com/channels/meta/${channel.id}`,
      config: {
        pageId: META_PAGE.id,
        pageName: META_PAGE.name,
        instagramAccountId: META_PAGE.instagramAccountId,
        pageAccessToken: `••••${META_PAGE.accessToken.slice(-4)}`,
        appSecret: `••••${APP_SECRET.slice(-4)}`,
        verifyToken: expect.stringMatching(/^[A-Za-z0-9_-]{32}$/),
      },
    });
    expect(graph.subscribedPages.has(META_PAGE.id)).toBe(true);
    const shown = (await getChannel({ app, org }, channel.id)).body;
    expect(shown).not.toContain(META_PAGE.accessToken);
    expect(shown).not.toContain(APP_SECRET);
  });

  test("refuses a token Meta does not take with 400, and stores nothing", async ({
    app,
    org,
    agent,
    graph,
  }) => {
    const before = await channelCount({ app, org, agent });
    const response = await app.api.inject({
      method: "POST",
      url: `/api/agents/${agent.id}/channels`,
      headers: org.auth,
      payload: {
        type: "meta",
        config: {
          pageId: META_PAGE.id,
          pageAccessToken: "EAAJ-not-a-token",
          appSecret: APP_SECRET,
        },
      },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      type: "INVALID_REQUEST",
      error: expect.stringMatching(
        /^Meta refused the channel's settings: Meta page lookup: Invalid OAuth/,
      ),
    });
    expect(response.body).not.toContain("EAAJ-not-a-token");
    expect(graph.callsTo("subscribed_apps POST")).toHaveLength(0);
    expect(await channelCount({ app, org, agent })).toBe(before);
  });

  test.for<[string, Record<string, unknown>, string]>([
    ["no page id", { pageAccessToken: "x", appSecret: "y" }, "body.config.pageId"],
    [
      "a page id that is not digits",
      { pageId: "acme", pageAccessToken: "x", appSecret: "y" },
      "body.config.pageId",
    ],
    ["no page token", { pageId: META_PAGE.id, appSecret: "y" }, "body.config.pageAccessToken"],
    ["no app secret", { pageId: META_PAGE.id, pageAccessToken: "x" }, "body.config.appSecret"],
  ])(
    "refuses a config with %s with 400 naming the field",
    async ([, config, path], { app, org, agent, graph }) => {
      const response = await app.api.inject({
        method: "POST",
        url: `/api/agents/${agent.id}/channels`,
        headers: org.auth,
        payload: { type: "meta", config },
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().details).toEqual(
        expect.arrayContaining([expect.objectContaining({ path })]),
      );
      expect(graph.calls).toHaveLength(0);
    },
  );

  test("answers Meta's verification with the challenge as text, and a wrong verify token with 403", async ({
    app,
  }) => {
    const verify = (token: string) =>
      app.api.inject({
        method: "GET",
        url: `${new URL(channel.webhookUrl).pathname}?${new URLSearchParams({
          "hub.mode": "subscribe",
          "hub.verify_token": token,
          "hub.challenge": "1523847601",
        })}`,
      });
    const ok = await verify(channel.config.verifyToken!);
    expect(ok.statusCode).toBe(200);
    expect(ok.headers["content-type"]).toMatch(/^text\/plain/);
    expect(ok.body).toBe("1523847601");
    const wrong = await verify("not-the-verify-token");
    expect(wrong.statusCode).toBe(403);
    expect(wrong.body).not.toContain("1523847601");
  });

  test("refuses a bad, missing or other app's signature with 401 and stores nothing", async ({
    app,
    org,
    agent,
  }) => {
    const payload = textFrom("6100000000000001", "Is this stored?");
    const body = metaWebhookBody(payload);
    for (const headers of [
      { "x-hub-signature-256": "sha256=00" },
      {},
      { "x-hub-signature-256": metaSignature("another-apps-secret", body) },
    ] as Array<Record<string, string>>) {
      expect((await postInbound(app, channel, body, headers)).statusCode).toBe(401);
    }
    expect(await conversationOf({ app, org, agent }, "messenger:6100000000000001")).toBeUndefined();
    expect((await getChannel({ app, org }, channel.id)).json().lastEventAt).toBeNull();
  });

  test("answers a Messenger text once through the Send API, however often Meta delivers it", async ({
    app,
    org,
    agent,
    fake,
    graph,
  }) => {
    const psid = "6100000000000002";
    fake.script({ text: "Our lamps ship within two days." });
    const payload = textFrom(psid, "When do you ship?");
    for (let attempt = 0; attempt < 3; attempt += 1) {
      expect((await send(app, payload)).statusCode).toBe(200);
    }
    await graph.waitForCalls("messages", 2);
    await nothingMoreHappens();
    expect(chatRequests(fake)).toHaveLength(1);
    expect(sentTo(graph, psid)).toEqual(["Our lamps ship within two days."]);
    const [call] = sends(graph);
    expect(call!.path).toBe(`/v23.0/${META_PAGE.id}/messages`);
    expect(call!.headers.authorization).toBe(`Bearer ${META_PAGE.accessToken}`);
    expect(call!.body).toEqual({
      recipient: { id: psid },
      messaging_type: "RESPONSE",
      message: { text: "Our lamps ship within two days." },
    });
    // The typing indicator went first.
    expect(graph.callsTo("messages")[0]!.body).toEqual({
      recipient: { id: psid },
      sender_action: "typing_on",
    });

    const conversation = (await conversationOf({ app, org, agent }, `messenger:${psid}`))!;
    expect(conversation.channel).toBe("meta");
    expect(conversation.messages.map((message) => [message.from, message.text])).toEqual([
      ["human", "When do you ship?"],
      ["agent", "Our lamps ship within two days."],
    ]);
    expect(conversation.messages[1]!.delivery).toEqual({
      status: "sent",
      platformMessageId: expect.stringMatching(/^m_/),
      error: null,
    });
    expect(conversation.contact).toMatchObject({ userId: `meta:messenger:${psid}` });
  });

  test("never answers echoes of the page's own messages, deliveries, reads or another page's messages", async ({
    app,
    org,
    agent,
    fake,
    graph,
  }) => {
    const psid = "6100000000000003";
    const bodies = [
      messengerEchoWebhook({
        ...PAGE,
        recipientId: psid,
        mid: messengerMid(),
        text: "Hello from the page",
      }),
      messengerDeliveryWebhook({ ...PAGE, senderId: psid, mids: [messengerMid()] }),
      messengerReadWebhook({ ...PAGE, senderId: psid }),
      messengerTextWebhook({
        object: "page",
        accountId: "999000111222333",
        senderId: psid,
        mid: messengerMid(),
        text: "I wrote to another page",
      }),
    ];
    for (const body of bodies) expect((await send(app, body)).statusCode).toBe(200);
    await nothingMoreHappens();
    expect(graph.callsTo("messages")).toHaveLength(0);
    expect(chatRequests(fake)).toHaveLength(0);
    expect(await conversationOf({ app, org, agent }, `messenger:${psid}`)).toBeUndefined();
  });

  test("answers an Instagram message to the page's Instagram account, in parts of at most 1,000 characters", async ({
    app,
    org,
    agent,
    fake,
    graph,
  }) => {
    const igsid = "17841400000000004";
    const sentence = "Our lamps are made of recycled brass and hand-blown glass.";
    const long = Array.from({ length: 30 }, () => sentence).join(" ");
    fake.script({ text: long });
    expect(
      (await send(app, textFrom(igsid, "Tell me about the lamps", undefined, INSTAGRAM)))
        .statusCode,
    ).toBe(200);
    await eventually(() => expect(sentTo(graph, igsid).length).toBeGreaterThanOrEqual(2));
    await nothingMoreHappens();
    const parts = sentTo(graph, igsid);
    for (const part of parts) expect(part.length).toBeLessThanOrEqual(1_000);
    expect(parts.join(" ")).toBe(long);
    const conversation = (await conversationOf({ app, org, agent }, `instagram:${igsid}`))!;
    expect(conversation.channel).toBe("meta");
  });

  test("answers a burst as one turn, in the order the messages were written", async ({
    app,
    org,
    agent,
    fake,
    graph,
  }) => {
    const psid = "6100000000000005";
    const now = Date.now();
    fake.script({ text: "Let me look for your lamp." });
    // Meta delivered the messages in the reverse of the order they were written in.
    expect((await send(app, textFrom(psid, "It has not arrived", now + 20))).statusCode).toBe(200);
    expect((await send(app, textFrom(psid, "I ordered a lamp", now + 10))).statusCode).toBe(200);
    expect((await send(app, textFrom(psid, "Good morning", now))).statusCode).toBe(200);
    await eventually(() => expect(sentTo(graph, psid)).toHaveLength(1));
    await nothingMoreHappens();
    expect(chatRequests(fake)).toHaveLength(1);
    const prompt = JSON.stringify(chatRequests(fake)[0]!.body);
    expect(prompt.indexOf("Good morning")).toBeLessThan(prompt.indexOf("I ordered a lamp"));
    expect(prompt.indexOf("I ordered a lamp")).toBeLessThan(prompt.indexOf("It has not arrived"));
    expect(sentTo(graph, psid)).toEqual(["Let me look for your lamp."]);
    const conversation = (await conversationOf({ app, org, agent }, `messenger:${psid}`))!;
    expect(conversation.messages.map((message) => message.text)).toEqual([
      "Good morning",
      "I ordered a lamp",
      "It has not arrived",
      "Let me look for your lamp.",
    ]);
  });

  test("splits a long answer into at most 10 messages of at most 2,000 characters, nothing cut off", async ({
    app,
    fake,
    graph,
  }) => {
    const psid = "6100000000000006";
    const paragraph = (n: number) =>
      `${"Brass lamps need a soft cloth. ".repeat(29).trim()} (${n})`;
    const long = Array.from({ length: 14 }, (_, index) => paragraph(index + 1)).join("\n\n");
    fake.script({ text: long });
    await send(app, textFrom(psid, "How do I care for my lamp?"));
    await eventually(() => expect(sentTo(graph, psid)).toHaveLength(10));
    await nothingMoreHappens();
    const parts = sentTo(graph, psid);
    expect(parts).toHaveLength(10);
    for (const part of parts) expect(part.length).toBeLessThanOrEqual(2_000);
    expect(parts.join(" ").replace(/\s+/g, " ")).toBe(long.replace(/\s+/g, " "));
  });

  test("fails an answer, saying why, when the customer's message is over 24 hours old", async ({
    app,
    org,
    agent,
    fake,
    graph,
  }) => {
    const late = await createChannel(
      { app, org, agent },
      {
        type: "meta",
        config: {
          pageId: META_PAGE.id,
          pageAccessToken: META_PAGE.accessToken,
          appSecret: APP_SECRET,
        },
      },
    );
    // Messages older than the channel are ignored: the channel is made two days old, so a
    // message Meta delivers 25 hours late is the real case of an answer outside the window.
    await app.database.db
      .update(channels)
      .set({ createdAt: sql`now() - interval '2 days'` as unknown as Date })
      .where(eq(channels.id, late.id));
    const psid = "6100000000000007";
    fake.script({ text: "Sorry for the delay." });
    const written = Date.now() - 25 * 3_600_000;
    expect((await send(app, textFrom(psid, "Hello?", written), late)).statusCode).toBe(200);
    const answer = await eventually(async () => {
      const last = (await conversationOf({ app, org, agent }, `messenger:${psid}`))?.messages.at(
        -1,
      );
      expect(last?.delivery?.status).toBe("failed");
      return last!;
    });
    expect(answer.delivery!.error).toMatch(/more than 24 hours/);
    expect(sentTo(graph, psid)).toEqual([]);
  });

  test("answers 404 to a disabled channel and to an unknown one, storing nothing", async ({
    app,
    org,
    agent,
  }) => {
    const other = await createChannel(
      { app, org, agent },
      {
        type: "meta",
        config: {
          pageId: META_PAGE.id,
          pageAccessToken: META_PAGE.accessToken,
          appSecret: APP_SECRET,
        },
      },
    );
    const patched = await app.api.inject({
      method: "PATCH",
      url: `/api/channels/${other.id}`,
      headers: org.auth,
      payload: { enabled: false },
    });
    expect(patched.statusCode).toBe(200);
    expect((await send(app, textFrom("6100000000000008", "Anyone?"), other)).statusCode).toBe(404);
    const unknown = { webhookUrl: "https://agents.example.com/channels/meta/no-such-channel" };
    expect((await send(app, textFrom("6100000000000008", "Anyone?"), unknown)).statusCode).toBe(
      404,
    );
    await nothingMoreHappens();
    expect(await conversationOf({ app, org, agent }, "messenger:6100000000000008")).toBeUndefined();
  });

  test("unsubscribes the page when deleted", async ({ app, org, agent, graph }) => {
    const other = await createChannel(
      { app, org, agent },
      {
        type: "meta",
        config: {
          pageId: META_PAGE.id,
          pageAccessToken: META_PAGE.accessToken,
          appSecret: APP_SECRET,
        },
      },
    );
    expect(graph.subscribedPages.has(META_PAGE.id)).toBe(true);
    const deleted = await app.api.inject({
      method: "DELETE",
      url: `/api/channels/${other.id}`,
      headers: org.auth,
    });
    expect(deleted.statusCode).toBe(204);
    expect(graph.callsTo("subscribed_apps DELETE")).toHaveLength(1);
    expect(graph.subscribedPages.has(META_PAGE.id)).toBe(false);
    expect((await getChannel({ app, org }, other.id)).statusCode).toBe(404);
    // The page is subscribed again for the channels still using it.
    const patched = await app.api.inject({
      method: "PATCH",
      url: `/api/channels/${channel.id}`,
      headers: org.auth,
      payload: { config: {} },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(graph.subscribedPages.has(META_PAGE.id)).toBe(true);
  });
});

describe("an operator's reply on Messenger", () => {
  test("goes out through the Send API, is refused over 2,000 characters, and with 409 after 24 hours", async ({
    app,
    org,
    agent,
    graph,
  }) => {
    const psid = "6100000000000009";
    expect((await send(app, textFrom(psid, "Hello there"))).statusCode).toBe(200);
    await eventually(() => expect(sentTo(graph, psid)).toHaveLength(1));
    const conversation = (await conversationOf({ app, org, agent }, `messenger:${psid}`))!;
    const reply = (text: string) =>
      app.api.inject({
        method: "POST",
        url: `/api/conversations/${conversation.id}/messages`,
        headers: org.auth,
        payload: { text },
      });
    const sent = await reply("A person here: your lamp ships today.");
    expect(sent.statusCode, sent.body).toBe(201);
    await eventually(() =>
      expect(sentTo(graph, psid).at(-1)).toBe("A person here: your lamp ships today."),
    );

    const tooLong = await reply("x".repeat(2_001));
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json()).toMatchObject({
      type: "INVALID_REQUEST",
      details: [{ path: "body.text", message: "must be at most 2000 characters on meta" }],
    });

    await app.database.db.execute(
      `update channel_threads set last_inbound_at = now() - interval '25 hours' where thread_key = 'messenger:${psid}'`,
    );
    const late = await reply("Anything else?");
    expect(late.statusCode).toBe(409);
    expect(late.json()).toMatchObject({
      type: "CONFLICT",
      error: expect.stringContaining("24 hours"),
    });
    await nothingMoreHappens();
    expect(sentTo(graph, psid)).not.toContain("Anything else?");
    expect(sentTo(graph, psid)).toHaveLength(2);
  });
});
