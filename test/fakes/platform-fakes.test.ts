import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type GraphApi,
  startGraphApi,
  whatsappAudioWebhook,
  whatsappRateLimitBody,
  whatsappStatusWebhook,
  whatsappTextWebhook,
} from "./graph-api.ts";
import {
  startTelegramApi,
  type TelegramApi,
  telegramBotMessageUpdate,
  telegramEditedUpdate,
  telegramTextUpdate,
  telegramVoiceUpdate,
} from "./telegram-api.ts";

const postJson = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });

const postForm = (url: string, fields: Record<string, string>, headers = {}) =>
  fetch(url, { method: "POST", headers, body: new URLSearchParams(fields) });

describe("fake Telegram Bot API", () => {
  const token = "123456:AAHfakeTokenForTests";
  let telegram: TelegramApi;
  let bot: string;
  beforeAll(async () => {
    telegram = await startTelegramApi({ tokens: [token] });
    bot = `${telegram.baseUrl}/bot${token}`;
  });
  afterAll(() => telegram.close());

  it("describes the bot, whose id is the token's prefix, and refuses unknown tokens", async () => {
    const me = await fetch(`${bot}/getMe`);
    expect(me.status).toBe(200);
    expect(await me.json()).toEqual({
      ok: true,
      result: { id: 123456, is_bot: true, first_name: "Fake Bot", username: "fake_123456_bot" },
    });
    const stranger = await fetch(`${telegram.baseUrl}/bot999:nope/getMe`);
    expect(stranger.status).toBe(401);
    expect(await stranger.json()).toEqual({
      ok: false,
      error_code: 401,
      description: "Unauthorized",
    });
    expect(telegram.callsTo("getMe")).toHaveLength(2);
  });

  it("sends messages given as JSON, form fields or query parameters", async () => {
    const byJson = await postJson(`${bot}/sendMessage`, {
      chat_id: 42,
      text: "hello",
      reply_parameters: { message_id: 7 },
    });
    const first = (await byJson.json()) as { ok: boolean; result: Record<string, unknown> };
    expect(first).toEqual({
      ok: true,
      result: {
        message_id: expect.any(Number),
        from: telegram.botOf(token),
        chat: { id: 42, type: "private" },
        date: expect.any(Number),
        text: "hello",
      },
    });
    expect(Math.abs((first.result.date as number) - Date.now() / 1000)).toBeLessThan(5);
    const byForm = await postForm(`${bot}/sendMessage`, { chat_id: "42", text: "second" });
    const second = (await byForm.json()) as { result: { message_id: number; chat: object } };
    expect(second.result.message_id).toBe((first.result.message_id as number) + 1);
    expect(second.result.chat).toEqual({ id: 42, type: "private" });
    const byQuery = await fetch(`${bot}/sendmessage?chat_id=42&text=third`);
    expect(((await byQuery.json()) as { result: { text: string } }).result.text).toBe("third");
    const calls = telegram.callsTo("sendMessage");
    expect(calls.map((call) => call.body)).toEqual([
      { chat_id: 42, text: "hello", reply_parameters: { message_id: 7 } },
      { chat_id: "42", text: "second" },
      "",
    ]);
  });

  it("refuses empty texts and texts over 4096 characters", async () => {
    const empty = await postJson(`${bot}/sendMessage`, { chat_id: 42, text: "  " });
    expect(empty.status).toBe(400);
    expect(await empty.json()).toEqual({
      ok: false,
      error_code: 400,
      description: "Bad Request: message text is empty",
    });
    const tooLong = await postJson(`${bot}/sendMessage`, { chat_id: 42, text: "a".repeat(4097) });
    expect(tooLong.status).toBe(400);
    expect(await tooLong.json()).toEqual({
      ok: false,
      error_code: 400,
      description: "Bad Request: message is too long",
    });
    const longest = await postJson(`${bot}/sendMessage`, { chat_id: 42, text: "a".repeat(4096) });
    expect(longest.status).toBe(200);
  });

  it("remembers the webhook until it is deleted", async () => {
    const set = await postJson(`${bot}/setWebhook`, {
      url: "https://agentdesk.example/telegram",
      secret_token: "s3cret",
      allowed_updates: ["message", "edited_message"],
    });
    expect(await set.json()).toEqual({ ok: true, result: true, description: "Webhook was set" });
    expect(telegram.webhookOf(token)).toEqual({
      url: "https://agentdesk.example/telegram",
      secret_token: "s3cret",
      allowed_updates: ["message", "edited_message"],
    });
    const deleted = await postJson(`${bot}/deleteWebhook`, {});
    expect(await deleted.json()).toEqual({
      ok: true,
      result: true,
      description: "Webhook was deleted",
    });
    expect(telegram.webhookOf(token)).toBeUndefined();
    const action = await postForm(`${bot}/sendChatAction`, { chat_id: "42", action: "typing" });
    expect(await action.json()).toEqual({ ok: true, result: true });
  });

  it("answers a scripted 429 as Telegram does, then succeeds", async () => {
    telegram.failNext("sendMessage", { status: 429, retryAfterSeconds: 3 });
    const limited = await postJson(`${bot}/sendMessage`, { chat_id: 42, text: "hi" });
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("3");
    expect(await limited.json()).toEqual({
      ok: false,
      error_code: 429,
      description: "Too Many Requests: retry after 3",
      parameters: { retry_after: 3 },
    });
    const retried = await postJson(`${bot}/sendMessage`, { chat_id: 42, text: "hi" });
    expect(retried.status).toBe(200);
  });

  it("serves files by file_id and file_path, to their bot only", async () => {
    const bytes = Buffer.from("OggS fake voice note");
    const fileId = telegram.addFile(token, bytes);
    const file = await postJson(`${bot}/getFile`, { file_id: fileId });
    const { result } = (await file.json()) as { result: Record<string, unknown> };
    expect(result).toEqual({
      file_id: fileId,
      file_unique_id: expect.any(String),
      file_size: bytes.length,
      file_path: expect.stringMatching(/^voice\/file_\d+\.oga$/),
    });
    const download = await fetch(`${telegram.baseUrl}/file/bot${token}/${result.file_path}`);
    expect(download.status).toBe(200);
    expect(Buffer.from(await download.arrayBuffer())).toEqual(bytes);
    const missing = await fetch(`${telegram.baseUrl}/file/bot${token}/voice/none.oga`);
    expect(missing.status).toBe(404);
    const unknown = await postJson(`${bot}/getFile`, { file_id: "nope" });
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toMatchObject({ description: "Bad Request: invalid file_id" });
  });

  it("builds Updates as Telegram posts them", () => {
    const from = { id: 42, first_name: "Ada", username: "ada" };
    const base = { updateId: 1, messageId: 10, chatId: 42, from, date: 1_700_000_000 };
    expect(telegramTextUpdate({ ...base, text: "/start" })).toEqual({
      update_id: 1,
      message: {
        message_id: 10,
        from: { id: 42, is_bot: false, first_name: "Ada", username: "ada", language_code: "en" },
        chat: { id: 42, first_name: "Ada", username: "ada", type: "private" },
        date: 1_700_000_000,
        text: "/start",
        entities: [{ offset: 0, length: 6, type: "bot_command" }],
      },
    });
    const voice = telegramVoiceUpdate({ ...base, fileId: "F1", duration: 3 });
    expect(voice.message.voice).toMatchObject({
      file_id: "F1",
      duration: 3,
      mime_type: "audio/ogg",
    });
    const edited = telegramEditedUpdate({ ...base, text: "fixed", editDate: 1_700_000_060 });
    expect(edited.edited_message).toMatchObject({ text: "fixed", edit_date: 1_700_000_060 });
    const fromBot = telegramBotMessageUpdate({ ...base, chatId: -100123, text: "beep" });
    expect(fromBot.message.from.is_bot).toBe(true);
    expect(fromBot.message.chat).toMatchObject({ id: -100123, type: "supergroup" });
  });
});

describe("fake Graph API", () => {
  const accessToken = "EAAGfakeAccessToken";
  const auth = { authorization: `Bearer ${accessToken}` };
  let graph: GraphApi;
  let messagesUrl: string;
  beforeAll(async () => {
    graph = await startGraphApi({ accessTokens: [accessToken] });
    messagesUrl = `${graph.baseUrl}/v23.0/1234567890/messages`;
  });
  afterAll(() => graph.close());

  const text = (body: string) => ({
    messaging_product: "whatsapp",
    recipient_type: "individual",
    to: "15551234567",
    type: "text",
    text: { body },
  });

  it("sends WhatsApp texts and names each message with a unique wamid", async () => {
    const first = await postJson(messagesUrl, text("hello"), auth);
    expect(first.status).toBe(200);
    const body = (await first.json()) as { messages: Array<{ id: string }> };
    expect(body).toEqual({
      messaging_product: "whatsapp",
      contacts: [{ input: "15551234567", wa_id: "15551234567" }],
      messages: [{ id: expect.stringMatching(/^wamid\./) }],
    });
    const second = (await (await postJson(messagesUrl, text("again"), auth)).json()) as {
      messages: Array<{ id: string }>;
    };
    expect(second.messages[0]!.id).not.toBe(body.messages[0]!.id);
    expect(graph.callsTo("messages")[0]!.body).toEqual(text("hello"));
  });

  it("refuses a missing or wrong token with OAuthException 190", async () => {
    for (const headers of [{}, { authorization: "Bearer wrong" }] as Array<
      Record<string, string>
    >) {
      const refused = await postJson(messagesUrl, text("hello"), headers);
      expect(refused.status).toBe(401);
      expect(await refused.json()).toEqual({
        error: {
          message: "Invalid OAuth access token - Cannot parse access token",
          type: "OAuthException",
          code: 190,
          fbtrace_id: expect.any(String),
        },
      });
    }
  });

  it("refuses a text over 4096 characters with code 100", async () => {
    const tooLong = await postJson(messagesUrl, text("a".repeat(4097)), auth);
    expect(tooLong.status).toBe(400);
    const { error } = (await tooLong.json()) as { error: { code: number; message: string } };
    expect(error.code).toBe(100);
    expect(error.message).toMatch(/^\(#100\)/);
  });

  it("answers scripted rate limits with code 130429, then succeeds", async () => {
    graph.failNext("messages", { status: 429, retryAfterSeconds: 2 });
    graph.failNext("messages", { status: 400, body: whatsappRateLimitBody() });
    const limited = await postJson(messagesUrl, text("hi"), auth);
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("2");
    expect(await limited.json()).toMatchObject({
      error: { code: 130429, message: "(#130429) Rate limit hit", type: "OAuthException" },
    });
    const limitedAgain = await postJson(messagesUrl, text("hi"), auth);
    expect(limitedAgain.status).toBe(400);
    expect(await limitedAgain.json()).toMatchObject({ error: { code: 130429 } });
    expect((await postJson(messagesUrl, text("hi"), auth)).status).toBe(200);
  });

  it("describes media and serves its bytes to bearers only", async () => {
    const bytes = Buffer.from("OggS fake opus");
    const mediaId = graph.addMedia(bytes, { mimeType: "audio/ogg; codecs=opus" });
    const info = await fetch(`${graph.baseUrl}/v23.0/${mediaId}`, { headers: auth });
    const described = (await info.json()) as { url: string };
    expect(described).toEqual({
      url: expect.stringMatching(
        new RegExp(`^${graph.baseUrl}/media-download/${mediaId}\\?ext=ogg&hash=\\w+$`),
      ),
      mime_type: "audio/ogg; codecs=opus",
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      file_size: bytes.length,
      id: mediaId,
      messaging_product: "whatsapp",
    });
    const download = await fetch(described.url, { headers: auth });
    expect(download.status).toBe(200);
    expect(download.headers.get("content-type")).toBe("audio/ogg; codecs=opus");
    expect(Buffer.from(await download.arrayBuffer())).toEqual(bytes);
    expect((await fetch(described.url)).status).toBe(401);
    const unknown = await fetch(`${graph.baseUrl}/v23.0/999`, { headers: auth });
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toMatchObject({ error: { code: 100, error_subcode: 33 } });
  });

  it("sends Messenger texts up to 2000 characters, token in the query", async () => {
    const pageUrl = `${graph.baseUrl}/v23.0/555/messages?access_token=${accessToken}`;
    const message = (body: string) => ({
      recipient: { id: "PSID1" },
      messaging_type: "RESPONSE",
      message: { text: body },
    });
    const sent = await postJson(pageUrl, message("hello"));
    expect(await sent.json()).toEqual({
      recipient_id: "PSID1",
      message_id: expect.stringMatching(/^m_/),
    });
    const tooLong = await postJson(pageUrl, message("a".repeat(2001)));
    expect(tooLong.status).toBe(400);
    expect(await tooLong.json()).toMatchObject({ error: { code: 100 } });
  });

  it("builds webhooks as Meta posts them", () => {
    const number = { phoneNumberId: "1234567890", displayPhoneNumber: "15550001111" };
    const sender = { from: "15551234567", name: "Ada", messageId: "wamid.IN1", timestamp: 1 };
    const textHook = whatsappTextWebhook({ ...number, ...sender, text: "hi" });
    expect(textHook.object).toBe("whatsapp_business_account");
    expect(textHook.entry[0]!.changes[0]).toEqual({
      field: "messages",
      value: {
        messaging_product: "whatsapp",
        metadata: { display_phone_number: "15550001111", phone_number_id: "1234567890" },
        contacts: [{ profile: { name: "Ada" }, wa_id: "15551234567" }],
        messages: [
          {
            from: "15551234567",
            id: "wamid.IN1",
            timestamp: "1",
            type: "text",
            text: { body: "hi" },
          },
        ],
      },
    });
    const audio = whatsappAudioWebhook({ ...number, ...sender, mediaId: "M1", voice: true });
    expect(audio.entry[0]!.changes[0]!.value.messages[0]).toMatchObject({
      type: "audio",
      audio: { id: "M1", mime_type: "audio/ogg; codecs=opus", voice: true },
    });
    const failed = whatsappStatusWebhook({
      ...number,
      messageId: "wamid.OUT1",
      status: "failed",
      recipientId: "15551234567",
    });
    expect(failed.entry[0]!.changes[0]!.value.statuses[0]).toMatchObject({
      id: "wamid.OUT1",
      status: "failed",
      errors: [
        {
          code: 131047,
          title: "Re-engagement message",
          error_data: { details: expect.any(String) },
        },
      ],
    });
  });
});
