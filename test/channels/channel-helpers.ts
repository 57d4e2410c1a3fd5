import { expect } from "vitest";
import type { Database } from "../../src/db/client.ts";
import type { Logger } from "../../src/lib/logger.ts";
import { type GraphApi, startGraphApi } from "../fakes/graph-api.ts";
import { type FakeOpenAI, startFakeOpenAI } from "../fakes/openai-server.ts";
import { type SlackApi, startSlackApi } from "../fakes/slack-api.ts";
import { startTelegramApi, type TelegramApi } from "../fakes/telegram-api.ts";
import { createAgent, createFundedOrganization } from "../harness/agents.ts";
import { startTestApp, type TestApp, type TestOrganization } from "../harness/app.ts";
import { type AppTestOptions, appTest } from "../harness/fixtures.ts";

export const BOT_TOKEN = "7000000001:AAH-test-bot-token-of-the-agent";
export const WHATSAPP_TOKEN = "EAAG-test-whatsapp-access-token";
export const SLACK_TOKEN = "xoxb-1-test-slack-bot-token";
/** The Facebook page of the `meta` channel tests, with the Instagram account linked to it. */
export const META_PAGE = {
  id: "104870652375193",
  name: "Acme Lamps",
  accessToken: "EAAJ-test-page-access-token-of-acme-lamps",
  instagramAccountId: "17841463256842921",
};

/** What the app needs to reach the fake platforms, with a short batching delay and a public URL. */
export const platformEnv = (fakes: {
  telegram: TelegramApi;
  graph: GraphApi;
  slack: SlackApi;
}) => ({
  TELEGRAM_API_BASE_URL: fakes.telegram.baseUrl,
  META_GRAPH_API_BASE_URL: fakes.graph.baseUrl,
  SLACK_API_BASE_URL: fakes.slack.baseUrl,
  CHANNEL_BATCH_DELAY_MS: "300",
  PUBLIC_URL: "https://agents.example.com",
});

/**
 * The `test` of a file about channels: `appTest` with Telegram, Graph and Slack pointed at fakes
 * on 127.0.0.1, a short batching delay and a public URL (`env` over them), and
 * - `telegram`, `graph`, `slack`: the fake platforms, started once per file before the app.
 */
export function channelTest(options: AppTestOptions = {}) {
  const test = appTest(options)
    // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from it
    .extend("telegram", { scope: "file" }, async ({}, { onCleanup }) => {
      const telegram = await startTelegramApi({ tokens: [BOT_TOKEN] });
      onCleanup(() => telegram.close());
      return telegram;
    })
    // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from it
    .extend("graph", { scope: "file" }, async ({}, { onCleanup }) => {
      const graph = await startGraphApi({ accessTokens: [WHATSAPP_TOKEN], pages: [META_PAGE] });
      onCleanup(() => graph.close());
      return graph;
    })
    // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from it
    .extend("slack", { scope: "file" }, async ({}, { onCleanup }) => {
      const slack = await startSlackApi({ botTokens: [SLACK_TOKEN] });
      onCleanup(() => slack.close());
      return slack;
    });
  return test.override("env", { scope: "file" }, ({ telegram, graph, slack }) => ({
    ...platformEnv({ telegram, graph, slack }),
    ...options.env,
  }));
}

/** The fixtures of `channelTest` that the helpers of a file take. */
export type ChannelFixtures = { app: TestApp; org: TestOrganization; agent: { id: string } };

export type ChannelTestApp = {
  app: TestApp;
  fake: FakeOpenAI;
  telegram: TelegramApi;
  graph: GraphApi;
  slack: SlackApi;
  org: TestOrganization;
  agentId: string;
  close(): Promise<void>;
};

/**
 * The app with OpenAI, Telegram, Graph and Slack pointed at fakes on 127.0.0.1, a short
 * batching delay, and a funded organization with one agent.
 */
export async function startChannelTestApp(
  env: Record<string, string> = {},
  database?: Database,
  logger?: Logger,
): Promise<ChannelTestApp> {
  const [fake, telegram, graph, slack] = await Promise.all([
    startFakeOpenAI({ apiKey: "sk-test" }),
    startTelegramApi({ tokens: [BOT_TOKEN] }),
    startGraphApi({ accessTokens: [WHATSAPP_TOKEN], pages: [META_PAGE] }),
    startSlackApi({ botTokens: [SLACK_TOKEN] }),
  ]);
  const app = await startTestApp({
    env: {
      OPENAI_API_KEY: "sk-test",
      OPENAI_BASE_URL: fake.url,
      TELEGRAM_API_BASE_URL: telegram.baseUrl,
      META_GRAPH_API_BASE_URL: graph.baseUrl,
      SLACK_API_BASE_URL: slack.baseUrl,
      CHANNEL_BATCH_DELAY_MS: "300",
      PUBLIC_URL: "https://agents.example.com",
      ...env,
    },
    ...(database ? { database } : {}),
    ...(logger ? { logger } : {}),
  });
  const org = await createFundedOrganization(app, "Acme");
  const agent = await createAgent(app, org);
  return {
    app,
    fake,
    telegram,
    graph,
    slack,
    org,
    agentId: agent.id,
    async close() {
      await app.close();
      await Promise.all([fake.close(), telegram.close(), graph.close(), slack.close()]);
    },
  };
}

export type ChannelBody = {
  id: string;
  agentId: string;
  type: string;
  name: string;
  enabled: boolean;
  status: string;
  webhookUrl: string;
  config: Record<string, string>;
  lastError: string | null;
  lastEventAt: string | null;
};

export async function createChannel(
  { app, org, agent }: ChannelFixtures,
  body: Record<string, unknown>,
): Promise<ChannelBody> {
  const response = await app.api.inject({
    method: "POST",
    url: `/api/agents/${agent.id}/channels`,
    headers: org.auth,
    payload: body,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

/** The path of a channel's webhook URL on our listener. */
const inboundPath = (channel: Pick<ChannelBody, "webhookUrl">) =>
  new URL(channel.webhookUrl).pathname;

/** POSTs bytes to a channel's webhook exactly as given (the signature is over them). */
export function postInbound(
  app: TestApp,
  channel: Pick<ChannelBody, "webhookUrl">,
  body: string,
  headers: Record<string, string>,
) {
  return app.api.inject({
    method: "POST",
    url: inboundPath(channel),
    headers: { "content-type": "application/json", ...headers },
    payload: body,
  });
}

/** The conversations of the agent, newest first, as the API lists them. */
export async function conversationsOf({ app, org, agent }: ChannelFixtures) {
  const response = await app.api.inject({
    method: "GET",
    url: `/api/conversations?agentId=${agent.id}`,
    headers: org.auth,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as {
    data: Array<{
      id: string;
      channel: string;
      channelExternalId: string | null;
      messages?: unknown[];
    }>;
  };
}

/** Polls until the check passes. */
export async function eventually<T>(check: () => Promise<T> | T, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

/** What the fake Bot API was asked to send to one chat, in order. */
export const telegramSendsTo = (telegram: TelegramApi, chatId: number) =>
  telegram
    .callsTo("sendMessage")
    .map((call) => call.body as { chat_id: string; text: string })
    .filter((body) => body.chat_id === String(chatId))
    .map((body) => body.text);

/** The fake model's chat completions. */
export const chatRequests = (fake: FakeOpenAI) =>
  fake.requests.filter((request) => request.path === "/v1/chat/completions");

/** The conversation of a Telegram chat, with its messages, as the API shows it. */
export async function conversationOfChat({ app, org, agent }: ChannelFixtures, chatId: number) {
  const client = app.client(org.auth);
  const list = await client.conversations.list({ agentId: agent.id });
  const found = list.body.data.find(
    (row: { channelExternalId: string }) => row.channelExternalId === String(chatId),
  );
  const full = await client.conversations.get(found.id, { agentId: agent.id });
  return full.body;
}
