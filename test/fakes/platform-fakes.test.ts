import { test as base, describe, expect } from "vitest";
import {
  startGraphApi,
  whatsappAudioWebhook,
  whatsappRateLimitBody,
  whatsappStatusWebhook,
  whatsappTextWebhook,
} from "./graph-api.ts";
import { metaSignature, metaWebhookBody, slackSignature } from "./platform-signatures.ts";
import {
  slackAppMention,
  slackBotMessage,
  slackDirectMessage,
  slackMessageChanged,
  slackUrlVerification,
  startSlackApi,
} from "./slack-api.ts";
import {
  startTelegramApi,
  telegramBotMessageUpdate,
  telegramEditedUpdate,
  telegramTextUpdate,
  telegramVoiceUpdate,
} from "./telegram-api.ts";

const TELEGRAM_TOKEN = "123456:AAHfakeTokenForTests";
const GRAPH_ACCESS_TOKEN = "EAAGfakeAccessToken";
const SLACK_BOT_TOKEN = "xoxb-fake-token";

/** Each fake, started once per file when a test asks for it, with the URLs its tests call. */
const test = base
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from it
  .extend("telegram", { scope: "file" }, async ({}, { onCleanup }) => {
    const telegram = await startTelegramApi({ tokens: [TELEGRAM_TOKEN] });
    onCleanup(() => telegram.close());
    return telegram;
  })
  .extend("bot", { scope: "file" }, ({ telegram }) => `${telegram.baseUrl}/bot${TELEGRAM_TOKEN}`)
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from it
  .extend("graph", { scope: "file" }, async ({}, { onCleanup }) => {
    const graph = await startGraphApi({ accessTokens: [GRAPH_ACCESS_TOKEN] });
    onCleanup(() => graph.close());
    return graph;
  })
  .extend(
    "messagesUrl",
    { scope: "file" },
    ({ graph }) => `${graph.baseUrl}/v23.0/1234567890/messages`,
  )
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from it
  .extend("slack", { scope: "file" }, async ({}, { onCleanup }) => {
    const slack = await startSlackApi({ botTokens: [SLACK_BOT_TOKEN] });
    onCleanup(() => slack.close());
    return slack;
  });

const postJson = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });

const postForm = (url: string, fields: Record<string, string>, headers = {}) =>
  fetch(url, { method: "POST", headers, body: new URLSearchParams(fields) });

describe("fake Telegram Bot API", () => {
  const token = TELEGRAM_TOKEN;

  test("describes the bot, whose id is the token's prefix, and refuses unknown tokens", async ({
    telegram,
    bot,
  }) => {
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

  test("sends messages given as JSON, form fields or query parameters", async ({
    telegram,
    bot,
  }) => {
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

  test("refuses empty texts and texts over 4096 characters", async ({ bot }) => {
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

  test("remembers the webhook until it is deleted", async ({ telegram, bot }) => {
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

  test("answers a scripted 429 as Telegram does, then succeeds", async ({ telegram, bot }) => {
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

  test("serves files by file_id and file_path, to their bot only", async ({ telegram, bot }) => {
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

  test("builds Updates as Telegram posts them", () => {
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
  const accessToken = GRAPH_ACCESS_TOKEN;
  const auth = { authorization: `Bearer ${accessToken}` };

  const text = (body: string) => ({
    messaging_product: "whatsapp",
    recipient_type: "individual",
    to: "15551234567",
    type: "text",
    text: { body },
  });

  test("sends WhatsApp texts and names each message with a unique wamid", async ({
    graph,
    messagesUrl,
  }) => {
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

  test("refuses a missing or wrong token with OAuthException 190", async ({ messagesUrl }) => {
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

  test("refuses a text over 4096 characters with code 100", async ({ messagesUrl }) => {
    const tooLong = await postJson(messagesUrl, text("a".repeat(4097)), auth);
    expect(tooLong.status).toBe(400);
    const { error } = (await tooLong.json()) as { error: { code: number; message: string } };
    expect(error.code).toBe(100);
    expect(error.message).toMatch(/^\(#100\)/);
  });

  test("answers scripted rate limits with code 130429, then succeeds", async ({
    graph,
    messagesUrl,
  }) => {
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

  test("describes media and serves its bytes to bearers only", async ({ graph }) => {
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

  test("sends Messenger texts up to 2000 characters, token in the query", async ({ graph }) => {
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

  test("builds webhooks as Meta posts them", () => {
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

describe("fake Slack Web API", () => {
  const botToken = SLACK_BOT_TOKEN;
  const auth = { authorization: `Bearer ${botToken}` };

  test("answers auth.test, and auth errors with HTTP 200", async ({ slack }) => {
    const bot = slack.identityOf(botToken);
    const ok = await postJson(`${slack.baseUrl}/auth.test`, {}, auth);
    expect(await ok.json()).toEqual({
      ok: true,
      url: bot.url,
      team: bot.team,
      user: bot.user,
      team_id: bot.teamId,
      user_id: bot.userId,
      bot_id: bot.botId,
      is_enterprise_install: false,
    });
    const invalid = await postJson(`${slack.baseUrl}/auth.test`, {}, { authorization: "Bearer x" });
    expect(invalid.status).toBe(200);
    expect(await invalid.json()).toEqual({ ok: false, error: "invalid_auth" });
    const missing = await postJson(`${slack.baseUrl}/auth.test`, {});
    expect(await missing.json()).toEqual({ ok: false, error: "not_authed" });
  });

  test("posts messages from JSON or form bodies, in threads, with unique ts", async ({ slack }) => {
    const bot = slack.identityOf(botToken);
    const posted = await postJson(
      `${slack.baseUrl}/chat.postMessage`,
      { channel: "C1", text: "hello", thread_ts: "1700000000.000100" },
      auth,
    );
    const first = (await posted.json()) as { ts: string };
    expect(first).toEqual({
      ok: true,
      channel: "C1",
      ts: expect.stringMatching(/^\d+\.\d{6}$/),
      message: {
        type: "message",
        text: "hello",
        user: bot.userId,
        bot_id: bot.botId,
        app_id: bot.appId,
        team: bot.teamId,
        ts: first.ts,
        thread_ts: "1700000000.000100",
      },
    });
    const byForm = await postForm(`${slack.baseUrl}/chat.postMessage`, {
      token: botToken,
      channel: "D1",
      text: "form",
    });
    const second = (await byForm.json()) as { ok: boolean; ts: string };
    expect(second.ok).toBe(true);
    expect(second.ts).not.toBe(first.ts);
    const calls = await slack.waitForCalls("chat.postMessage", 2);
    expect(calls[1]!.body).toEqual({ token: botToken, channel: "D1", text: "form" });
  });

  test("refuses a missing text and a text over 40,000 characters", async ({ slack }) => {
    const url = `${slack.baseUrl}/chat.postMessage`;
    const noText = await postJson(url, { channel: "C1" }, auth);
    expect(noText.status).toBe(200);
    expect(await noText.json()).toEqual({ ok: false, error: "no_text" });
    const tooLong = await postJson(url, { channel: "C1", text: "a".repeat(40_001) }, auth);
    expect(await tooLong.json()).toEqual({ ok: false, error: "msg_too_long" });
  });

  test("answers a scripted 429 with Retry-After, then succeeds", async ({ slack }) => {
    slack.failNext("chat.postMessage", { status: 429, retryAfterSeconds: 30 });
    const url = `${slack.baseUrl}/chat.postMessage`;
    const limited = await postJson(url, { channel: "C1", text: "hi" }, auth);
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("30");
    expect(await limited.json()).toEqual({ ok: false, error: "ratelimited" });
    expect(await (await postJson(url, { channel: "C1", text: "hi" }, auth)).json()).toMatchObject({
      ok: true,
    });
  });

  test("builds Events API payloads as Slack posts them", () => {
    expect(slackUrlVerification("abc")).toMatchObject({
      type: "url_verification",
      challenge: "abc",
    });
    const envelope = { teamId: "T1", apiAppId: "A1", eventId: "Ev1", eventTime: 1_700_000_000 };
    const message = { ...envelope, channel: "C1", user: "U1", ts: "1700000000.000100" };
    const mention = slackAppMention({ ...message, text: "<@U0FAKEBOT1> hi" });
    expect(mention).toMatchObject({
      type: "event_callback",
      team_id: "T1",
      api_app_id: "A1",
      event_id: "Ev1",
      event_time: 1_700_000_000,
      authorizations: [{ team_id: "T1", user_id: "U0FAKEBOT1", is_bot: true }],
      event: { type: "app_mention", channel: "C1", user: "U1", text: "<@U0FAKEBOT1> hi" },
    });
    const direct = slackDirectMessage({ ...message, channel: "D1", text: "hi" });
    expect(direct.event).toMatchObject({ type: "message", channel_type: "im", channel: "D1" });
    const fromBot = slackBotMessage({
      ...envelope,
      channel: "D1",
      botId: "B1",
      text: "x",
      ts: "1.1",
    });
    expect(fromBot.event).toMatchObject({ subtype: "bot_message", bot_id: "B1" });
    const edit = slackMessageChanged({
      ...message,
      text: "new",
      previousText: "old",
      editTs: "2.2",
    });
    expect(edit.event).toMatchObject({
      subtype: "message_changed",
      message: { text: "new", edited: { user: "U1", ts: "2.2" } },
      previous_message: { text: "old" },
    });
  });
});

describe("platform signatures", () => {
  test("matches Slack's documented example", () => {
    // https://api.slack.com/authentication/verifying-requests-from-slack (worked example)
    const body =
      "token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V&channel_name=foobar&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c";
    expect(slackSignature("8f742231b10e8888abcd99yyyzzz85a5", 1531420618, body)).toBe(
      "v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503",
    );
  });

  test("signs Meta's escaped body as an independent HMAC does", () => {
    // Expected hex from: printf '%s' '{"text":"caf\u00e9"}' | openssl dgst -sha256 -hmac meta-app-secret
    const body = metaWebhookBody({ text: "café" });
    expect(body).toBe('{"text":"caf\\u00e9"}');
    expect(metaSignature("meta-app-secret", body)).toBe(
      "sha256=2b06bbae1f24c471421e038fa86e43446811a30e3263d3e90d94040deb527ff3",
    );
  });
});
