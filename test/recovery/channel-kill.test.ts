import { describe, expect } from "vitest";
import { startFakeOpenAI } from "../fakes/openai-server.ts";
import { startTelegramApi, telegramTextUpdate } from "../fakes/telegram-api.ts";
import { ADMIN_TOKEN, type TestOrganization } from "../harness/app.ts";
import { testDatabaseKind } from "../harness/database.ts";
import type { ServiceProcess } from "../harness/service-process.ts";
import { serviceTest } from "./recovery-helpers.ts";

// A real `agentdesk serve` killed with SIGKILL after it acknowledged a Telegram update and
// before it answered: the answer comes once, from the next process (PGlite: the same DATA_DIR
// started again; PostgreSQL: a second process up before the kill).
const BOT_TOKEN = "7000000002:AAH-kill-test-bot-token";
const SLOW_TEST_MS = 120_000;

const test = serviceTest("agentdesk-channel-kill-")
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from it
  .extend("fake", { scope: "file" }, async ({}, { onCleanup }) => {
    const fake = await startFakeOpenAI({ apiKey: "sk-test" });
    onCleanup(() => fake.close());
    return fake;
  })
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from it
  .extend("telegram", { scope: "file" }, async ({}, { onCleanup }) => {
    const telegram = await startTelegramApi({ tokens: [BOT_TOKEN] });
    onCleanup(() => telegram.close());
    return telegram;
  });
test.override("env", { scope: "file" }, ({ fake, telegram, storage }) => ({
  ...storage,
  // The embedded database's processes make their key under DATA_DIR; with DATABASE_URL,
  // channels need SECRETS_KEY.
  ...(testDatabaseKind === "pglite" ? {} : { SECRETS_KEY: "5a".repeat(32) }),
  JOB_LEASE_SECONDS: "2",
  OPENAI_API_KEY: "sk-test",
  OPENAI_BASE_URL: fake.url,
  TELEGRAM_API_BASE_URL: telegram.baseUrl,
  PUBLIC_URL: "https://agents.example.com",
  // Long enough for the kill to land between the acknowledgement and the answer.
  CHANNEL_BATCH_DELAY_MS: "1500",
}));

async function setUp(service: ServiceProcess) {
  const org: TestOrganization = await service.createOrganization("Kill -9 channel");
  const granted = await service.request("POST", `/api/admin/organizations/${org.id}/credits`, {
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    json: { amount: 100 },
  });
  expect(granted.status).toBe(201);
  const agent = await service.request<{ id: string }>("POST", "/api/agents", {
    auth: org,
    json: { name: "Support", modelName: "gpt_4o_mini" },
  });
  const channel = await service.request<{ id: string; webhookUrl: string }>(
    "POST",
    `/api/agents/${agent.body.id}/channels`,
    { auth: org, json: { type: "telegram", config: { botToken: BOT_TOKEN } } },
  );
  expect(channel.status).toBe(201);
  return { path: new URL(channel.body.webhookUrl).pathname };
}

describe("a channel message acknowledged by a process killed with SIGKILL", () => {
  test(
    "is answered exactly once after the restart, even when Telegram delivers it again",
    async ({ telegram, spawnService }) => {
      const first = await spawnService();
      const { path } = await setUp(first);
      const secret = telegram.webhookOf(BOT_TOKEN)!.secret_token!;
      const update = JSON.stringify(
        telegramTextUpdate({
          updateId: 1,
          messageId: 1,
          chatId: 314,
          from: { id: 314, first_name: "Kim" },
          text: "Is my order on its way?",
        }),
      );
      const deliver = (service: ServiceProcess) =>
        fetch(`${service.apiUrl}${path}`, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            "x-telegram-bot-api-secret-token": secret,
          },
          body: update,
        });
      const survivor = testDatabaseKind === "postgres" ? await spawnService() : null;
      expect((await deliver(first)).status).toBe(200);
      await first.kill();
      expect(telegram.callsTo("sendMessage")).toHaveLength(0);

      const next = survivor ?? (await spawnService());
      // Telegram saw no answer in time on the dead process and tries again.
      expect((await deliver(next)).status).toBe(200);
      await telegram.waitForCalls("sendMessage", 1, 60_000);
      // Long enough for a second answer to show, were there one: two leases and a batch.
      await new Promise((resolve) => setTimeout(resolve, 6_000));
      expect(telegram.callsTo("sendMessage")).toHaveLength(1);
      expect(telegram.callsTo("sendMessage")[0]!.body).toMatchObject({ chat_id: "314" });
    },
    SLOW_TEST_MS,
  );
});
