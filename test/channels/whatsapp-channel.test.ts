import { eq, sql } from "drizzle-orm";
import { describe, expect } from "vitest";
import { channels } from "../../src/db/schema/index.ts";
import {
  type GraphApi,
  whatsappAudioWebhook,
  whatsappStatusWebhook,
  whatsappTextWebhook,
} from "../fakes/graph-api.ts";
import { metaSignature, metaWebhookBody } from "../fakes/platform-signatures.ts";
import type { TestApp } from "../harness/app.ts";
import { oggOpusFile } from "../transcription/audio-builders.ts";
import { transcriptionEvents } from "../transcription/transcription-helpers.ts";
import {
  type ChannelBody,
  type ChannelFixtures,
  channelTest,
  chatRequests,
  conversationsOf,
  createChannel,
  eventually,
  postInbound,
  WHATSAPP_TOKEN,
} from "./channel-helpers.ts";

const PHONE_NUMBER_ID = "106540352242922";
const APP_SECRET = "5f1c0e2d9a8b7c6d5e4f3a2b1c0d9e8f";
const CUSTOMER = "34600111222";

const test = channelTest();

let channel: ChannelBody;
test.beforeAll(async ({ app, org, agent }) => {
  channel = await createChannel(
    { app, org, agent },
    {
      type: "whatsapp",
      name: "Support line",
      config: {
        phoneNumberId: PHONE_NUMBER_ID,
        accessToken: WHATSAPP_TOKEN,
        appSecret: APP_SECRET,
      },
    },
  );
});
test.beforeEach(({ graph }) => {
  graph.calls.length = 0;
});

let nextMessage = 0;
const messageId = () => {
  nextMessage += 1;
  return `wamid.HBgLMzQ2MDAxMTEyMjIVAgASGBQz${nextMessage}`;
};
function textFrom(text: string, from = CUSTOMER, name = "Zoë Núñez") {
  return whatsappTextWebhook({
    phoneNumberId: PHONE_NUMBER_ID,
    from,
    name,
    messageId: messageId(),
    text,
  });
}

/** Signs the body as Meta does: over its bytes, serialized the way Meta serializes them. */
function send(
  app: TestApp,
  payload: unknown,
  options: { to?: Pick<ChannelBody, "webhookUrl">; secret?: string } = {},
) {
  const body = metaWebhookBody(payload);
  return postInbound(app, options.to ?? channel, body, {
    "x-hub-signature-256": metaSignature(options.secret ?? APP_SECRET, body),
  });
}
const sends = (graph: GraphApi) => graph.callsTo("messages");
const sentTexts = (graph: GraphApi) =>
  sends(graph).map((call) => (call.body as { text: { body: string } }).text.body);
const nothingMoreHappens = () => new Promise((resolve) => setTimeout(resolve, 1_000));

// The spec's {organizationId}_{agentId}_{telephoneNumber}, the number as WhatsApp names the
// customer (wa_id: digits): what a client of the query-agent API writes for the same customer.
const externalIdOf = ({ org, agent }: ChannelFixtures, number: string) =>
  `${org.id}_${agent.id}_${number}`;
async function conversationWith(fixtures: ChannelFixtures, number: string) {
  const rows = (await conversationsOf(fixtures)).data;
  return rows.find((row) => row.channelExternalId === externalIdOf(fixtures, number));
}

type StoredMessage = {
  id: string;
  from: string;
  text: string;
  delivery?: { status: string; platformMessageId: string | null; error: string | null };
};
async function detailOf({ app, org, agent }: ChannelFixtures, conversationId: string) {
  const response = await app.api.inject({
    method: "GET",
    url: `/api/conversations/${conversationId}?agentId=${agent.id}`,
    headers: org.auth,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as {
    channel: string;
    channelExternalId: string;
    contact: Record<string, unknown> | null;
    messages: StoredMessage[];
  };
}
/** The latest answer sent through the channel (query-agent's notes have no delivery). */
async function lastAnswerTo(fixtures: ChannelFixtures, number: string) {
  const conversation = await conversationWith(fixtures, number);
  const detail = await detailOf(fixtures, conversation!.id);
  return detail.messages.filter((message) => message.delivery !== undefined).at(-1)!;
}
const getChannel = ({ app, org }: Pick<ChannelFixtures, "app" | "org">, id: string) =>
  app.api.inject({ method: "GET", url: `/api/channels/${id}`, headers: org.auth });

describe("a WhatsApp channel", () => {
  test("is created with a generated verify token and its credentials masked", async ({
    app,
    org,
    agent,
  }) => {
    expect(channel).toMatchObject({
      agentId: agent.id,
      type: "whatsapp",
      name: "Support line",
      enabled: true,
      status: "active",
      webhookUrl: `https://agents.example.com/channels/whatsapp/${channel.id}`,
      config: {
        phoneNumberId: PHONE_NUMBER_ID,
        accessToken: `••••${WHATSAPP_TOKEN.slice(-4)}`,
        appSecret: `••••${APP_SECRET.slice(-4)}`,
        verifyToken: expect.stringMatching(/^[A-Za-z0-9_-]{32}$/),
      },
      lastError: null,
      lastEventAt: null,
    });
    const shown = [
      JSON.stringify(channel),
      (await getChannel({ app, org }, channel.id)).body,
      (
        await app.api.inject({
          method: "GET",
          url: `/api/agents/${agent.id}/channels`,
          headers: org.auth,
        })
      ).body,
    ];
    for (const body of shown) {
      expect(body).not.toContain(WHATSAPP_TOKEN);
      expect(body).not.toContain(APP_SECRET);
    }
  });

  test("answers Meta's verification with the challenge as text, and a wrong verify token with 403", async ({
    app,
  }) => {
    const verify = (query: Record<string, string>) =>
      app.api.inject({
        method: "GET",
        url: `${new URL(channel.webhookUrl).pathname}?${new URLSearchParams(query)}`,
      });
    const ok = await verify({
      "hub.mode": "subscribe",
      "hub.verify_token": channel.config.verifyToken!,
      "hub.challenge": "1158201444",
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.headers["content-type"]).toMatch(/^text\/plain/);
    expect(ok.body).toBe("1158201444");
    const wrong = await verify({
      "hub.mode": "subscribe",
      "hub.verify_token": "not-the-token",
      "hub.challenge": "1158201444",
    });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.body).not.toContain("1158201444");
  });

  test("refuses a bad, missing or other app's signature with 401 and stores nothing", async ({
    app,
    org,
    agent,
  }) => {
    const payload = textFrom("Is this stored?", "34600999000");
    const body = metaWebhookBody(payload);
    const refused: Array<Record<string, string>> = [
      { "x-hub-signature-256": "sha256=0000" },
      {},
      { "x-hub-signature-256": metaSignature("another-apps-secret", body) },
      // Signed over the body as JSON.stringify writes it, not the bytes that are sent.
      { "x-hub-signature-256": metaSignature(APP_SECRET, JSON.stringify(payload)) },
    ];
    for (const headers of refused) {
      expect((await postInbound(app, channel, body, headers)).statusCode).toBe(401);
    }
    expect(await conversationWith({ app, org, agent }, "34600999000")).toBeUndefined();
    expect((await getChannel({ app, org }, channel.id)).json().lastEventAt).toBeNull();
  });

  test("answers a text once through the Cloud API, however often Meta delivers it", async ({
    app,
    org,
    agent,
    fake,
    graph,
  }) => {
    fake.script({ text: "We open at nine." });
    const payload = textFrom("When do you open?");
    for (let attempt = 0; attempt < 3; attempt += 1) {
      expect((await send(app, payload)).statusCode).toBe(200);
    }
    await graph.waitForCalls("messages", 1);
    await nothingMoreHappens();
    expect(chatRequests(fake)).toHaveLength(1);
    expect(sentTexts(graph)).toEqual(["We open at nine."]);
    const [call] = sends(graph);
    expect(call!.path).toBe(`/v23.0/${PHONE_NUMBER_ID}/messages`);
    expect(call!.headers.authorization).toBe(`Bearer ${WHATSAPP_TOKEN}`);
    expect(call!.body).toMatchObject({
      messaging_product: "whatsapp",
      to: CUSTOMER,
      type: "text",
      text: { body: "We open at nine." },
    });

    const conversation = (await conversationWith({ app, org, agent }, CUSTOMER))!;
    expect(conversation.channel).toBe("whatsapp");
    const detail = await detailOf({ app, org, agent }, conversation.id);
    expect(detail.messages.map((message) => [message.from, message.text])).toEqual([
      ["human", "When do you open?"],
      ["agent", "We open at nine."],
    ]);
    expect(detail.messages[1]!.delivery).toEqual({
      status: "sent",
      platformMessageId: expect.stringMatching(/^wamid\./),
      error: null,
    });
    expect(detail.contact).toMatchObject({
      firstName: "Zoë",
      lastName: "Núñez",
      phoneNumber: `+${CUSTOMER}`,
    });
  });

  test("shares the conversation with the query-agent API under the spec's channelExternalId", async ({
    app,
    org,
    agent,
  }) => {
    const answered = (await conversationWith({ app, org, agent }, CUSTOMER))!;
    const response = await app.api.inject({
      method: "POST",
      url: `/api/agents/${agent.id}/query-agent`,
      headers: org.auth,
      payload: {
        query: "An operator's note",
        channel: "whatsapp",
        channelExternalId: externalIdOf({ app, org, agent }, CUSTOMER),
      },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().conversationId).toBe(answered.id);
  });

  test("moves a message's delivery forward with status callbacks, never back, and never answers them", async ({
    app,
    org,
    agent,
    fake,
    graph,
  }) => {
    const answer = await lastAnswerTo({ app, org, agent }, CUSTOMER);
    const wamid = answer.delivery!.platformMessageId!;
    const status = (value: "sent" | "delivered" | "read") =>
      whatsappStatusWebhook({
        phoneNumberId: PHONE_NUMBER_ID,
        messageId: wamid,
        status: value,
        recipientId: CUSTOMER,
      });
    for (const value of ["sent", "delivered", "read"] as const) {
      expect((await send(app, status(value))).statusCode).toBe(200);
      expect((await lastAnswerTo({ app, org, agent }, CUSTOMER)).delivery!.status).toBe(value);
    }
    expect((await send(app, status("delivered"))).statusCode).toBe(200);
    await nothingMoreHappens();
    expect((await lastAnswerTo({ app, org, agent }, CUSTOMER)).delivery).toEqual({
      status: "read",
      platformMessageId: wamid,
      error: null,
    });
    expect(sends(graph)).toHaveLength(0);
    expect(chatRequests(fake)).toHaveLength(0);
  });

  test("records a failed delivery with Meta's reason", async ({ app, org, agent, fake, graph }) => {
    const number = "34600222333";
    fake.script({ text: "Here is your receipt." });
    await send(app, textFrom("Send me the receipt", number, "Bo"));
    await graph.waitForCalls("messages", 1);
    const wamid = await eventually(async () => {
      const id = (await lastAnswerTo({ app, org, agent }, number)).delivery?.platformMessageId;
      expect(id).toEqual(expect.any(String));
      return id!;
    });
    const failed = whatsappStatusWebhook({
      phoneNumberId: PHONE_NUMBER_ID,
      messageId: wamid,
      status: "failed",
      recipientId: number,
      errors: [
        {
          code: 131026,
          title: "Message undeliverable",
          details: "The recipient's phone number is not a WhatsApp number.",
        },
      ],
    });
    expect((await send(app, failed)).statusCode).toBe(200);
    expect((await lastAnswerTo({ app, org, agent }, number)).delivery).toEqual({
      status: "failed",
      platformMessageId: wamid,
      error: "131026 Message undeliverable: The recipient's phone number is not a WhatsApp number.",
    });
  });

  test("transcribes a voice note, answers it and charges the transcription, storing no media URL or token", async ({
    app,
    org,
    agent,
    fake,
    graph,
  }) => {
    const number = "34600333444";
    const audio = oggOpusFile({ packets: 150 });
    const mediaId = graph.addMedia(audio, { mimeType: "audio/ogg; codecs=opus" });
    fake.scriptTranscription({ text: "Do you deliver on Sundays?" });
    fake.script({ text: "Yes, on Sundays too." });
    const payload = whatsappAudioWebhook({
      phoneNumberId: PHONE_NUMBER_ID,
      from: number,
      name: "Cy",
      messageId: messageId(),
      mediaId,
      voice: true,
    });
    expect((await send(app, payload)).statusCode).toBe(200);
    await graph.waitForCalls("messages", 1);
    expect(sentTexts(graph)).toEqual(["Yes, on Sundays too."]);

    const [info] = graph.callsTo("media");
    expect(info!.path).toBe(`/v23.0/${mediaId}`);
    const [download] = graph.callsTo("media-download");
    expect(download!.headers.authorization).toBe(`Bearer ${WHATSAPP_TOKEN}`);
    expect(JSON.stringify(chatRequests(fake)[0]!.body)).toContain("Do you deliver on Sundays?");

    const conversation = (await conversationWith({ app, org, agent }, number))!;
    const stored = JSON.stringify(await detailOf({ app, org, agent }, conversation.id));
    expect(stored).toContain("Do you deliver on Sundays?");
    for (const secret of ["media-download", graph.baseUrl, WHATSAPP_TOKEN]) {
      expect(stored).not.toContain(secret);
    }
    const [charge] = await transcriptionEvents(app, org);
    expect(charge).toMatchObject({ agentId: agent.id, feature: "transcription", units: 3 });
    expect(JSON.stringify(charge)).not.toContain(graph.baseUrl);
  });

  test("fails a free-text answer, saying why, when the customer's last message is over 24 hours old", async ({
    app,
    org,
    agent,
    fake,
    graph,
  }) => {
    const late = await createChannel(
      { app, org, agent },
      {
        type: "whatsapp",
        config: {
          phoneNumberId: "106540352200001",
          accessToken: WHATSAPP_TOKEN,
          appSecret: APP_SECRET,
        },
      },
    );
    // Messages older than the channel are ignored, so the channel is made two days old: then
    // Meta delivering a message written 25 hours ago (it retries deliveries for days) is the
    // real case of an answer due outside the window, with nothing racing the answer job.
    await app.database.db
      .update(channels)
      .set({ createdAt: sql`now() - interval '2 days'` as unknown as Date })
      .where(eq(channels.id, late.id));
    const number = "34600444555";
    fake.script({ text: "Sorry for the delay." });
    const payload = whatsappTextWebhook({
      phoneNumberId: "106540352200001",
      from: number,
      name: "Di",
      messageId: messageId(),
      text: "Hello?",
      timestamp: Math.floor(Date.now() / 1000) - 25 * 3600,
    });
    expect((await send(app, payload, { to: late })).statusCode).toBe(200);
    const answer = await eventually(async () => {
      const conversation = await conversationWith({ app, org, agent }, number);
      expect(conversation).toBeDefined();
      const last = await lastAnswerTo({ app, org, agent }, number);
      expect(last.delivery?.status).toBe("failed");
      return last;
    });
    expect(answer.delivery).toEqual({
      status: "failed",
      platformMessageId: null,
      error: expect.stringMatching(/more than 24 hours/),
    });
    expect(sends(graph)).toHaveLength(0);
  });

  test("ignores messages to another phone number of the same app", async ({
    app,
    org,
    agent,
    fake,
    graph,
  }) => {
    const number = "34600555666";
    const payload = whatsappTextWebhook({
      phoneNumberId: "106540352299999",
      from: number,
      name: "Ed",
      messageId: messageId(),
      text: "Am I on the right line?",
    });
    expect((await send(app, payload)).statusCode).toBe(200);
    await nothingMoreHappens();
    expect(sends(graph)).toHaveLength(0);
    expect(chatRequests(fake)).toHaveLength(0);
    expect(await conversationWith({ app, org, agent }, number)).toBeUndefined();
  });

  test("shows when Meta last reached the channel", async ({ app, org }) => {
    const response = await getChannel({ app, org }, channel.id);
    expect(response.statusCode).toBe(200);
    expect(response.json().lastEventAt).toEqual(expect.any(String));
  });

  test("goes to status error when Meta refuses the token at send time, and back with a working one", async ({
    app,
    org,
    agent,
    fake,
    graph,
  }) => {
    const revoked = "EAAG-revoked-whatsapp-access-token";
    const other = await createChannel(
      { app, org, agent },
      {
        type: "whatsapp",
        config: { phoneNumberId: "106540352200002", accessToken: revoked, appSecret: APP_SECRET },
      },
    );
    fake.script({ text: "You will not see this." });
    const payload = whatsappTextWebhook({
      phoneNumberId: "106540352200002",
      from: "34600666777",
      name: "Flo",
      messageId: messageId(),
      text: "Hi",
    });
    expect((await send(app, payload, { to: other })).statusCode).toBe(200);
    await graph.waitForCalls("messages", 1);
    const broken = await eventually(async () => {
      const body = (await getChannel({ app, org }, other.id)).json();
      expect(body.status).toBe("error");
      return body;
    });
    expect(broken.lastError).toMatch(/^WhatsApp send: Invalid OAuth access token/);
    expect(JSON.stringify(broken)).not.toContain(revoked);
    expect((await lastAnswerTo({ app, org, agent }, "34600666777")).delivery).toMatchObject({
      status: "failed",
    });

    const patched = await app.api.inject({
      method: "PATCH",
      url: `/api/channels/${other.id}`,
      headers: org.auth,
      payload: { config: { accessToken: WHATSAPP_TOKEN } },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json()).toMatchObject({
      status: "active",
      lastError: null,
      config: { accessToken: `••••${WHATSAPP_TOKEN.slice(-4)}` },
    });
  });
});

describe("an operator's reply on WhatsApp", () => {
  test("goes out through the Cloud API, and is refused with 409 after the 24-hour window", async ({
    app,
    org,
    agent,
    graph,
  }) => {
    const customer = "34611222333";
    expect((await send(app, textFrom("Hello there", customer))).statusCode).toBe(200);
    await eventually(() => expect(sends(graph)).toHaveLength(1));
    const list = await app.client(org.auth).conversations.list({ agentId: agent.id });
    const conversation = list.body.data.find((row: { channelExternalId: string }) =>
      row.channelExternalId.endsWith(`_${customer}`),
    );
    const reply = (text: string) =>
      app.api.inject({
        method: "POST",
        url: `/api/conversations/${conversation.id}/messages`,
        headers: org.auth,
        payload: { text },
      });
    const sent = await reply("A person here: your order ships today.");
    expect(sent.statusCode, sent.body).toBe(201);
    await eventually(() =>
      expect(sentTexts(graph).at(-1)).toBe("A person here: your order ships today."),
    );
    expect(sends(graph).at(-1)!.body).toMatchObject({ to: customer, type: "text" });

    // The customer's last message is now 25 hours old (moved back in the database: the
    // platform dates it, and a message that old would be older than the channel).
    await app.database.db.execute(
      `update channel_threads set last_inbound_at = now() - interval '25 hours' where thread_key = '${customer}'`,
    );
    const late = await reply("Anything else?");
    expect(late.statusCode).toBe(409);
    expect(late.json()).toMatchObject({
      type: "CONFLICT",
      error: expect.stringContaining("24 hours"),
    });
    await nothingMoreHappens();
    expect(sentTexts(graph)).not.toContain("Anything else?");
    const stored = await app.client(org.auth).conversations.get(conversation.id, {
      agentId: agent.id,
    });
    expect(stored.body.messages.map((message: { text: string }) => message.text)).not.toContain(
      "Anything else?",
    );
  });
});
