import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { channels } from "../../src/db/schema/index.ts";
import {
  whatsappAudioWebhook,
  whatsappStatusWebhook,
  whatsappTextWebhook,
} from "../fakes/graph-api.ts";
import { metaSignature, metaWebhookBody } from "../fakes/platform-signatures.ts";
import { oggOpusFile } from "../transcription/audio-builders.ts";
import { transcriptionEvents } from "../transcription/transcription-helpers.ts";
import {
  type ChannelBody,
  type ChannelTestApp,
  conversationsOf,
  createChannel,
  eventually,
  postInbound,
  startChannelTestApp,
  WHATSAPP_TOKEN,
} from "./channel-helpers.ts";

const PHONE_NUMBER_ID = "106540352242922";
const APP_SECRET = "5f1c0e2d9a8b7c6d5e4f3a2b1c0d9e8f";
const CUSTOMER = "34600111222";

let t: ChannelTestApp;
let channel: ChannelBody;
beforeAll(async () => {
  t = await startChannelTestApp();
  channel = await createChannel(t, {
    type: "whatsapp",
    name: "Support line",
    config: { phoneNumberId: PHONE_NUMBER_ID, accessToken: WHATSAPP_TOKEN, appSecret: APP_SECRET },
  });
});
afterAll(() => t.close());
beforeEach(() => {
  t.graph.calls.length = 0;
  t.fake.requests.length = 0;
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
  payload: unknown,
  options: { to?: Pick<ChannelBody, "webhookUrl">; secret?: string } = {},
) {
  const body = metaWebhookBody(payload);
  return postInbound(t.app, options.to ?? channel, body, {
    "x-hub-signature-256": metaSignature(options.secret ?? APP_SECRET, body),
  });
}
const sends = () => t.graph.callsTo("messages");
const sentTexts = () => sends().map((call) => (call.body as { text: { body: string } }).text.body);
const chatRequests = () =>
  t.fake.requests.filter((request) => request.path === "/v1/chat/completions");
const nothingMoreHappens = () => new Promise((resolve) => setTimeout(resolve, 1_000));

// The spec's {organizationId}_{agentId}_{telephoneNumber}, the number as WhatsApp names the
// customer (wa_id: digits): what a client of the query-agent API writes for the same customer.
const externalIdOf = (number: string) => `${t.org.id}_${t.agentId}_${number}`;
async function conversationWith(number: string) {
  const rows = (await conversationsOf(t)).data;
  return rows.find((row) => row.channelExternalId === externalIdOf(number));
}

type StoredMessage = {
  id: string;
  from: string;
  text: string;
  delivery?: { status: string; platformMessageId: string | null; error: string | null };
};
async function detailOf(conversationId: string) {
  const response = await t.app.api.inject({
    method: "GET",
    url: `/api/conversations/${conversationId}?agentId=${t.agentId}`,
    headers: t.org.auth,
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
async function lastAnswerTo(number: string) {
  const conversation = await conversationWith(number);
  const detail = await detailOf(conversation!.id);
  return detail.messages.filter((message) => message.delivery !== undefined).at(-1)!;
}
const getChannel = (id: string) =>
  t.app.api.inject({ method: "GET", url: `/api/channels/${id}`, headers: t.org.auth });

describe("a WhatsApp channel", () => {
  test("is created with a generated verify token and its credentials masked", async () => {
    expect(channel).toMatchObject({
      agentId: t.agentId,
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
      (await getChannel(channel.id)).body,
      (
        await t.app.api.inject({
          method: "GET",
          url: `/api/agents/${t.agentId}/channels`,
          headers: t.org.auth,
        })
      ).body,
    ];
    for (const body of shown) {
      expect(body).not.toContain(WHATSAPP_TOKEN);
      expect(body).not.toContain(APP_SECRET);
    }
  });

  test("answers Meta's verification with the challenge as text, and a wrong verify token with 403", async () => {
    const verify = (query: Record<string, string>) =>
      t.app.api.inject({
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

  test("refuses a bad, missing or other app's signature with 401 and stores nothing", async () => {
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
      expect((await postInbound(t.app, channel, body, headers)).statusCode).toBe(401);
    }
    expect(await conversationWith("34600999000")).toBeUndefined();
    expect((await getChannel(channel.id)).json().lastEventAt).toBeNull();
  });

  test("answers a text once through the Cloud API, however often Meta delivers it", async () => {
    t.fake.script({ text: "We open at nine." });
    const payload = textFrom("When do you open?");
    for (let attempt = 0; attempt < 3; attempt += 1) {
      expect((await send(payload)).statusCode).toBe(200);
    }
    await t.graph.waitForCalls("messages", 1);
    await nothingMoreHappens();
    expect(chatRequests()).toHaveLength(1);
    expect(sentTexts()).toEqual(["We open at nine."]);
    const [call] = sends();
    expect(call!.path).toBe(`/v23.0/${PHONE_NUMBER_ID}/messages`);
    expect(call!.headers.authorization).toBe(`Bearer ${WHATSAPP_TOKEN}`);
    expect(call!.body).toMatchObject({
      messaging_product: "whatsapp",
      to: CUSTOMER,
      type: "text",
      text: { body: "We open at nine." },
    });

    const conversation = (await conversationWith(CUSTOMER))!;
    expect(conversation.channel).toBe("whatsapp");
    const detail = await detailOf(conversation.id);
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

  test("shares the conversation with the query-agent API under the spec's channelExternalId", async () => {
    const answered = (await conversationWith(CUSTOMER))!;
    const response = await t.app.api.inject({
      method: "POST",
      url: `/api/agents/${t.agentId}/query-agent`,
      headers: t.org.auth,
      payload: {
        query: "An operator's note",
        channel: "whatsapp",
        channelExternalId: externalIdOf(CUSTOMER),
      },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().conversationId).toBe(answered.id);
  });

  test("moves a message's delivery forward with status callbacks, never back, and never answers them", async () => {
    const answer = await lastAnswerTo(CUSTOMER);
    const wamid = answer.delivery!.platformMessageId!;
    const status = (value: "sent" | "delivered" | "read") =>
      whatsappStatusWebhook({
        phoneNumberId: PHONE_NUMBER_ID,
        messageId: wamid,
        status: value,
        recipientId: CUSTOMER,
      });
    for (const value of ["sent", "delivered", "read"] as const) {
      expect((await send(status(value))).statusCode).toBe(200);
      expect((await lastAnswerTo(CUSTOMER)).delivery!.status).toBe(value);
    }
    expect((await send(status("delivered"))).statusCode).toBe(200);
    await nothingMoreHappens();
    expect((await lastAnswerTo(CUSTOMER)).delivery).toEqual({
      status: "read",
      platformMessageId: wamid,
      error: null,
    });
    expect(sends()).toHaveLength(0);
    expect(chatRequests()).toHaveLength(0);
  });

  test("records a failed delivery with Meta's reason", async () => {
    const number = "34600222333";
    t.fake.script({ text: "Here is your receipt." });
    await send(textFrom("Send me the receipt", number, "Bo"));
    await t.graph.waitForCalls("messages", 1);
    const wamid = await eventually(async () => {
      const id = (await lastAnswerTo(number)).delivery?.platformMessageId;
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
    expect((await send(failed)).statusCode).toBe(200);
    expect((await lastAnswerTo(number)).delivery).toEqual({
      status: "failed",
      platformMessageId: wamid,
      error: "131026 Message undeliverable: The recipient's phone number is not a WhatsApp number.",
    });
  });

  test("transcribes a voice note, answers it and charges the transcription, storing no media URL or token", async () => {
    const number = "34600333444";
    const audio = oggOpusFile({ packets: 150 });
    const mediaId = t.graph.addMedia(audio, { mimeType: "audio/ogg; codecs=opus" });
    t.fake.scriptTranscription({ text: "Do you deliver on Sundays?" });
    t.fake.script({ text: "Yes, on Sundays too." });
    const payload = whatsappAudioWebhook({
      phoneNumberId: PHONE_NUMBER_ID,
      from: number,
      name: "Cy",
      messageId: messageId(),
      mediaId,
      voice: true,
    });
    expect((await send(payload)).statusCode).toBe(200);
    await t.graph.waitForCalls("messages", 1);
    expect(sentTexts()).toEqual(["Yes, on Sundays too."]);

    const [info] = t.graph.callsTo("media");
    expect(info!.path).toBe(`/v23.0/${mediaId}`);
    const [download] = t.graph.callsTo("media-download");
    expect(download!.headers.authorization).toBe(`Bearer ${WHATSAPP_TOKEN}`);
    expect(JSON.stringify(chatRequests()[0]!.body)).toContain("Do you deliver on Sundays?");

    const conversation = (await conversationWith(number))!;
    const stored = JSON.stringify(await detailOf(conversation.id));
    expect(stored).toContain("Do you deliver on Sundays?");
    for (const secret of ["media-download", t.graph.baseUrl, WHATSAPP_TOKEN]) {
      expect(stored).not.toContain(secret);
    }
    const [charge] = await transcriptionEvents(t.app, t.org);
    expect(charge).toMatchObject({ agentId: t.agentId, feature: "transcription", units: 3 });
    expect(JSON.stringify(charge)).not.toContain(t.graph.baseUrl);
  });

  test("fails a free-text answer, saying why, when the customer's last message is over 24 hours old", async () => {
    const late = await createChannel(t, {
      type: "whatsapp",
      config: {
        phoneNumberId: "106540352200001",
        accessToken: WHATSAPP_TOKEN,
        appSecret: APP_SECRET,
      },
    });
    // Messages older than the channel are ignored, so the channel is made two days old: then
    // Meta delivering a message written 25 hours ago (it retries deliveries for days) is the
    // real case of an answer due outside the window, with nothing racing the answer job.
    await t.app.database.db
      .update(channels)
      .set({ createdAt: sql`now() - interval '2 days'` as unknown as Date })
      .where(eq(channels.id, late.id));
    const number = "34600444555";
    t.fake.script({ text: "Sorry for the delay." });
    const payload = whatsappTextWebhook({
      phoneNumberId: "106540352200001",
      from: number,
      name: "Di",
      messageId: messageId(),
      text: "Hello?",
      timestamp: Math.floor(Date.now() / 1000) - 25 * 3600,
    });
    expect((await send(payload, { to: late })).statusCode).toBe(200);
    const answer = await eventually(async () => {
      const conversation = await conversationWith(number);
      expect(conversation).toBeDefined();
      const last = await lastAnswerTo(number);
      expect(last.delivery?.status).toBe("failed");
      return last;
    });
    expect(answer.delivery).toEqual({
      status: "failed",
      platformMessageId: null,
      error: expect.stringMatching(/more than 24 hours/),
    });
    expect(sends()).toHaveLength(0);
  });

  test("ignores messages to another phone number of the same app", async () => {
    const number = "34600555666";
    const payload = whatsappTextWebhook({
      phoneNumberId: "106540352299999",
      from: number,
      name: "Ed",
      messageId: messageId(),
      text: "Am I on the right line?",
    });
    expect((await send(payload)).statusCode).toBe(200);
    await nothingMoreHappens();
    expect(sends()).toHaveLength(0);
    expect(chatRequests()).toHaveLength(0);
    expect(await conversationWith(number)).toBeUndefined();
  });

  test("shows when Meta last reached the channel", async () => {
    const response = await getChannel(channel.id);
    expect(response.statusCode).toBe(200);
    expect(response.json().lastEventAt).toEqual(expect.any(String));
  });

  test("goes to status error when Meta refuses the token at send time, and back with a working one", async () => {
    const revoked = "EAAG-revoked-whatsapp-access-token";
    const other = await createChannel(t, {
      type: "whatsapp",
      config: { phoneNumberId: "106540352200002", accessToken: revoked, appSecret: APP_SECRET },
    });
    t.fake.script({ text: "You will not see this." });
    const payload = whatsappTextWebhook({
      phoneNumberId: "106540352200002",
      from: "34600666777",
      name: "Flo",
      messageId: messageId(),
      text: "Hi",
    });
    expect((await send(payload, { to: other })).statusCode).toBe(200);
    await t.graph.waitForCalls("messages", 1);
    const broken = await eventually(async () => {
      const body = (await getChannel(other.id)).json();
      expect(body.status).toBe("error");
      return body;
    });
    expect(broken.lastError).toMatch(/^WhatsApp send: Invalid OAuth access token/);
    expect(JSON.stringify(broken)).not.toContain(revoked);
    expect((await lastAnswerTo("34600666777")).delivery).toMatchObject({ status: "failed" });

    const patched = await t.app.api.inject({
      method: "PATCH",
      url: `/api/channels/${other.id}`,
      headers: t.org.auth,
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
  test("goes out through the Cloud API, and is refused with 409 after the 24-hour window", async () => {
    const customer = "34611222333";
    expect((await send(textFrom("Hello there", customer))).statusCode).toBe(200);
    await eventually(() => expect(sends()).toHaveLength(1));
    const list = await t.app.client(t.org.auth).conversations.list({ agentId: t.agentId });
    const conversation = list.body.data.find((row: { channelExternalId: string }) =>
      row.channelExternalId.endsWith(`_${customer}`),
    );
    const reply = (text: string) =>
      t.app.api.inject({
        method: "POST",
        url: `/api/conversations/${conversation.id}/messages`,
        headers: t.org.auth,
        payload: { text },
      });
    const sent = await reply("A person here: your order ships today.");
    expect(sent.statusCode, sent.body).toBe(201);
    await eventually(() =>
      expect(sentTexts().at(-1)).toBe("A person here: your order ships today."),
    );
    expect(sends().at(-1)!.body).toMatchObject({ to: customer, type: "text" });

    // The customer's last message is now 25 hours old (moved back in the database: the
    // platform dates it, and a message that old would be older than the channel).
    await t.app.database.db.execute(
      `update channel_threads set last_inbound_at = now() - interval '25 hours' where thread_key = '${customer}'`,
    );
    const late = await reply("Anything else?");
    expect(late.statusCode).toBe(409);
    expect(late.json()).toMatchObject({
      type: "CONFLICT",
      error: expect.stringContaining("24 hours"),
    });
    await nothingMoreHappens();
    expect(sentTexts()).not.toContain("Anything else?");
    const stored = await t.app.client(t.org.auth).conversations.get(conversation.id, {
      agentId: t.agentId,
    });
    expect(stored.body.messages.map((message: { text: string }) => message.text)).not.toContain(
      "Anything else?",
    );
  });
});
