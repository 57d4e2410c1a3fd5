import { afterAll, beforeAll, describe, expect, it } from "vitest";
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
