import { describe, expect } from "vitest";
import { createLogger } from "../../src/lib/logger.ts";
import { telegramTextUpdate } from "../fakes/telegram-api.ts";
import { memberOf, type SignedIn } from "../harness/accounts.ts";
import { createAgent } from "../harness/agents.ts";
import { startTestApp, type TestApp, type TestOrganization } from "../harness/app.ts";
import {
  BOT_TOKEN,
  type ChannelBody,
  channelTest,
  createChannel,
  eventually,
  postInbound,
} from "./channel-helpers.ts";

/** Every line the service logs, as production writes them. */
const written: string[] = [];
const logger = createLogger("info", "json", { write: (line: string) => written.push(line) });

const test = channelTest({ logger });

let channel: ChannelBody;
let other: TestOrganization;
let otherAgentId: string;
let admin: SignedIn;
let member: SignedIn;
let viewer: SignedIn;
/** What Telegram was told to send with each update (later channels of the same bot replace it). */
let secret: string;
test.beforeAll(async ({ app, org, agent, telegram }) => {
  channel = await createChannel(
    { app, org, agent },
    { type: "telegram", config: { botToken: BOT_TOKEN } },
  );
  secret = telegram.webhookOf(BOT_TOKEN)!.secret_token!;
  other = await app.createOrganization("Other");
  otherAgentId = (await createAgent(app, other)).id;
  admin = await memberOf(app, org, "admin");
  member = await memberOf(app, org, "member");
  viewer = await memberOf(app, org, "viewer");
});

const request = (
  app: TestApp,
  method: "GET" | "POST" | "PATCH" | "DELETE",
  url: string,
  headers: Record<string, string>,
  payload?: Record<string, unknown>,
) => app.api.inject({ method, url, headers, ...(payload === undefined ? {} : { payload }) });

describe("channel management refuses bad input with a clear 400", () => {
  test.for<[string, Record<string, unknown>, string]>([
    ["no type", { config: { botToken: BOT_TOKEN } }, "body.type"],
    ["an unknown type", { type: "fax", config: {} }, "body.type"],
    ["no config", { type: "telegram" }, "body.config"],
    ["no bot token", { type: "telegram", config: {} }, "body.config.botToken"],
    [
      "a WhatsApp number id that is not digits",
      { type: "whatsapp", config: { phoneNumberId: "abc", accessToken: "x", appSecret: "y" } },
      "body.config.phoneNumberId",
    ],
    [
      "a Slack channel without its signing secret",
      { type: "slack", config: { botToken: "xoxb-1" } },
      "body.config.signingSecret",
    ],
    [
      "an empty name",
      { type: "telegram", name: " ", config: { botToken: BOT_TOKEN } },
      "body.name",
    ],
  ])("%s", async ([, body, path], { app, org, agent }) => {
    const response = await request(app, "POST", `/api/agents/${agent.id}/channels`, org.auth, body);
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().type).toBe("INVALID_REQUEST");
    expect(response.json().details.map((detail: { path: string }) => detail.path)).toContain(path);
  });

  test("refuses a PATCH with a wrong field type or a token Telegram refuses, and changes nothing", async ({
    app,
    org,
  }) => {
    const wrongType = await request(app, "PATCH", `/api/channels/${channel.id}`, org.auth, {
      enabled: "yes",
    });
    expect(wrongType.statusCode).toBe(400);
    const refused = await request(app, "PATCH", `/api/channels/${channel.id}`, org.auth, {
      name: "Renamed",
      config: { botToken: "1:refused" },
    });
    expect(refused.statusCode).toBe(400);
    const after = await request(app, "GET", `/api/channels/${channel.id}`, org.auth);
    expect(after.json()).toMatchObject({
      name: channel.name,
      config: channel.config,
      status: "active",
    });
  });

  test("keeps a credential sent back masked, as a GET showed it", async ({
    app,
    org,
    telegram,
  }) => {
    const shown = await request(app, "GET", `/api/channels/${channel.id}`, org.auth);
    const patched = await request(app, "PATCH", `/api/channels/${channel.id}`, org.auth, {
      config: shown.json().config,
    });
    expect(patched.statusCode, patched.body).toBe(200);
    // Telegram was called with the real token again, not with the mask.
    expect(telegram.webhookOf(BOT_TOKEN)?.url).toBe(channel.webhookUrl);
    expect(patched.json().config).toEqual(channel.config);
  });

  test("answers a body that is not a Telegram update with 400, never 500", async ({ app }) => {
    for (const body of ["not json", "[]", '{"update_id":"x"}']) {
      const response = await postInbound(app, channel, body, {
        "x-telegram-bot-api-secret-token": secret,
      });
      expect(response.statusCode, body).toBe(400);
    }
  });

  test("refuses an inbound body over 1 MB with 413", async ({ app }) => {
    const huge = JSON.stringify(
      telegramTextUpdate({
        updateId: 1,
        messageId: 1,
        chatId: 1,
        from: { id: 1, first_name: "A" },
        text: "x".repeat(1_100_000),
      }),
    );
    const response = await postInbound(app, channel, huge, {
      "x-telegram-bot-api-secret-token": secret,
    });
    expect(response.statusCode).toBe(413);
  });
});

describe("channels belong to their organization", () => {
  test("answers 404 for another organization's channel and agent, and changes nothing", async ({
    app,
    org,
  }) => {
    for (const [method, payload] of [
      ["GET"],
      ["PATCH", { name: "Mine now" }],
      ["DELETE"],
    ] as const) {
      const response = await request(
        app,
        method,
        `/api/channels/${channel.id}`,
        other.auth,
        payload,
      );
      expect(response.statusCode, method).toBe(404);
    }
    const create = await request(app, "POST", `/api/agents/${otherAgentId}/channels`, org.auth, {
      type: "telegram",
      config: { botToken: BOT_TOKEN },
    });
    expect(create.statusCode).toBe(404);
    const list = await request(app, "GET", `/api/agents/${otherAgentId}/channels`, org.auth);
    expect(list.statusCode).toBe(404);
    const mine = await request(app, "GET", `/api/channels/${channel.id}`, org.auth);
    expect(mine.json().name).toBe(channel.name);
  });

  test("needs a key or a session", async ({ app, agent }) => {
    expect((await request(app, "GET", `/api/channels/${channel.id}`, {})).statusCode).toBe(401);
    expect(
      (await request(app, "POST", `/api/agents/${agent.id}/channels`, {}, {})).statusCode,
    ).toBe(401);
  });

  test("lets admins manage channels, members and viewers read them", async ({ app, agent }) => {
    const body = { type: "telegram", config: { botToken: BOT_TOKEN } };
    const url = `/api/agents/${agent.id}/channels`;
    expect((await request(app, "POST", url, member.headers, body)).statusCode).toBe(403);
    expect((await request(app, "POST", url, viewer.headers, body)).statusCode).toBe(403);
    expect((await request(app, "GET", url, viewer.headers)).statusCode).toBe(200);
    const created = await request(app, "POST", url, admin.headers, body);
    expect(created.statusCode, created.body).toBe(201);
    const removed = await request(
      app,
      "DELETE",
      `/api/channels/${created.json().id}`,
      admin.headers,
    );
    expect(removed.statusCode).toBe(204);
  });

  test("takes the scopes and agents of a key into account", async ({ app, org, agent }) => {
    const makeKey = async (payload: Record<string, unknown>) => {
      const response = await request(app, "POST", "/api/api-keys", admin.headers, {
        name: "k",
        ...payload,
      });
      expect(response.statusCode, response.body).toBe(201);
      return { authorization: `Bearer ${response.json().key}` };
    };
    const reader = await makeKey({ scopes: ["agents:read"] });
    expect((await request(app, "GET", `/api/channels/${channel.id}`, reader)).statusCode).toBe(200);
    expect(
      (await request(app, "PATCH", `/api/channels/${channel.id}`, reader, { name: "x" }))
        .statusCode,
    ).toBe(403);
    const manager = await makeKey({ scopes: ["channels:write"] });
    expect((await request(app, "GET", `/api/channels/${channel.id}`, manager)).statusCode).toBe(
      200,
    );
    const elsewhere = await makeKey({ agentIds: [(await createAgent(app, org)).id] });
    // Its agents' channels only: another agent's is not found, as its conversations are.
    expect((await request(app, "GET", `/api/channels/${channel.id}`, elsewhere)).statusCode).toBe(
      404,
    );
    expect(
      (await request(app, "GET", `/api/agents/${agent.id}/channels`, elsewhere)).statusCode,
    ).toBe(403);
  });

  test("records creation, changes and deletion in the audit log, without credentials", async ({
    app,
    org,
    agent,
  }) => {
    const created = await createChannel(
      { app, org, agent },
      { type: "telegram", config: { botToken: BOT_TOKEN } },
    );
    await request(app, "PATCH", `/api/channels/${created.id}`, org.auth, { name: "Night shift" });
    await request(app, "DELETE", `/api/channels/${created.id}`, org.auth);
    const audit = await request(app, "GET", "/api/audit-events?limit=50", admin.headers);
    expect(audit.statusCode, audit.body).toBe(200);
    const mine = audit
      .json()
      .data.filter((event: { target: { id: string } | null }) => event.target?.id === created.id);
    expect(mine.map((event: { action: string }) => event.action).sort()).toEqual([
      "channel.changed",
      "channel.created",
      "channel.deleted",
    ]);
    expect(JSON.stringify(mine)).not.toContain(BOT_TOKEN);
  });
});

describe("credentials stay secret", () => {
  test("never logs the bot token or the webhook secret", async ({ app, telegram }) => {
    await postInbound(app, channel, JSON.stringify({ update_id: 5 }), {
      "x-telegram-bot-api-secret-token": "wrong",
    });
    await postInbound(
      app,
      channel,
      JSON.stringify(
        telegramTextUpdate({
          updateId: 6,
          messageId: 6,
          chatId: 6,
          from: { id: 6, first_name: "E" },
          text: "Hello",
        }),
      ),
      { "x-telegram-bot-api-secret-token": secret },
    );
    await telegram.waitForCalls("sendMessage", 1);
    const log = written.join("\n");
    expect(log).toContain('"route":"/channels/:type/:id","status":200');
    expect(log).not.toContain(BOT_TOKEN);
    expect(log).not.toContain(BOT_TOKEN.split(":")[1]);
    expect(log).not.toContain(secret);
  });

  test("stores the token sealed, not in clear", async ({ app }) => {
    const rows = await app.database.db.execute(
      `select config::text as config, credentials from channels where id = '${channel.id}'`,
    );
    const row = (rows as unknown as { rows: Array<{ config: string; credentials: string }> })
      .rows[0]!;
    expect(row.config).not.toContain(BOT_TOKEN);
    expect(row.credentials).toMatch(/^v1:/);
    expect(row.credentials).not.toContain(BOT_TOKEN);
  });

  test("counts inbound requests by outcome in /metrics", async ({ app }) => {
    // The send is counted once the platform's answer is recorded, a moment after it arrived.
    await eventually(async () => {
      const metrics = await request(app, "GET", "/metrics", {
        authorization: "Bearer test-admin-token",
      });
      expect(metrics.statusCode).toBe(200);
      for (const series of [
        'agentdesk_channel_inbound_total{type="telegram",outcome="accepted"}',
        'agentdesk_channel_inbound_total{type="telegram",outcome="unauthorized"}',
        'agentdesk_channel_send_seconds_count{type="telegram",outcome="sent"}',
        'agentdesk_channel_answer_seconds_count{type="telegram"}',
      ]) {
        expect(metrics.body).toContain(`${series} 1`);
      }
    });
  });
});

describe("without SECRETS_KEY", () => {
  test("refuses to create a channel, naming SECRETS_KEY", async () => {
    const app = await startTestApp({ env: { SECRETS_KEY: "" } });
    try {
      const org = await app.createOrganization("Keyless");
      const agent = await createAgent(app, org);
      const response = await app.api.inject({
        method: "POST",
        url: `/api/agents/${agent.id}/channels`,
        headers: org.auth,
        payload: { type: "telegram", config: { botToken: BOT_TOKEN } },
      });
      expect(response.statusCode).toBe(503);
      expect(response.json().error).toContain("SECRETS_KEY");
    } finally {
      await app.close();
    }
  });
});
