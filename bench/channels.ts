import { type Database, openDatabase } from "../src/db/client.ts";
import { type FakeOpenAI, startFakeOpenAI } from "../test/fakes/openai-server.ts";
import { ADMIN_TOKEN, startTestApp } from "../test/harness/app.ts";
import {
  BENCH_PLATFORMS,
  type BenchPlatform,
  type BenchPlatformName,
} from "./lib/channel-platforms.ts";
import {
  analyse,
  answersByChat,
  type ChannelFigures,
  echoSequences,
  type PlannedUpdate,
  planUpdates,
} from "./lib/channel-traffic.ts";
import { freshPostgres } from "./lib/databases.ts";
import { formatTable } from "./lib/load.ts";
import { runOpenLoop } from "./lib/open-loop.ts";
import { buildIfStale, type RunningService, startService } from "./lib/service-processes.ts";

/**
 * npm run bench -- channels [--type=telegram|meta|mail] [--pg] [--rate=200] [--seconds=30]
 *   [--chats=500] [--burst=3] [--delay-ms=200] [--drain-seconds=180] [--acks-only]
 *
 * Platform updates (Telegram's by default; `--type=meta`: Messenger webhooks, each signed with
 * X-Hub-Signature-256) posted at a fixed rate (an open loop) to a channel's webhook over HTTP on
 * 127.0.0.1, answered through the job queue by a zero-latency fake model and sent to a fake of
 * the platform's API (the Bot API, the Graph API). Each chat writes `burst` messages 50 ms apart (one batch), then waits for every other
 * chat's burst; the fake model answers with the numbers of the messages it was given, so the
 * sends tell which messages each answer covered and in what order.
 * - default: one process (`all`) on an in-memory PGlite, the bench's own process;
 * - --pg: a fresh database on BENCH_DATABASE_URL, TEST_DATABASE_URL or
 *   postgres://postgres@127.0.0.1:5432/test; two `agentdesk serve --role api` processes and one
 *   `--role worker`; every update goes to both API processes at once, so both race to store it;
 * - --acks-only: no worker (role `api`), so the acknowledgements are timed without the answers
 *   competing for the database; nothing is answered.
 */
type Options = {
  type: BenchPlatformName;
  pg: boolean;
  acksOnly: boolean;
  rate: number;
  seconds: number;
  chats: number;
  burst: number;
  delayMs: number;
  drainSeconds: number;
};

function parseOptions(args: string[]): Options {
  const value = (name: string, fallback: number) => {
    const found = args.find((arg) => arg.startsWith(`--${name}=`));
    return found ? Number(found.split("=")[1]) : fallback;
  };
  const type = args.find((arg) => arg.startsWith("--type="))?.split("=")[1] ?? "telegram";
  if (!(type in BENCH_PLATFORMS)) throw new Error(`--type: one of ${Object.keys(BENCH_PLATFORMS)}`);
  return {
    type: type as BenchPlatformName,
    pg: args.includes("--pg"),
    acksOnly: args.includes("--acks-only"),
    rate: value("rate", 200),
    seconds: value("seconds", 30),
    chats: value("chats", 500),
    burst: value("burst", 3),
    delayMs: value("delay-ms", 200),
    drainSeconds: value("drain-seconds", 180),
  };
}

/** The first seconds of a fresh process, also reported apart: V8 is still compiling its paths. */
const WARM_UP_SECONDS = 5;
const SECRETS_KEY = "5c".repeat(32);

/** Requests to the dashboard API of `base`, JSON both ways; throws on an unexpected status. */
async function call<Body>(
  base: string,
  authorization: string,
  method: string,
  path: string,
  expected: number,
  json?: unknown,
): Promise<Body> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: {
      authorization,
      ...(json === undefined ? {} : { "content-type": "application/json" }),
    },
    body: json === undefined ? undefined : JSON.stringify(json),
  });
  const text = await response.text();
  if (response.status !== expected)
    throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return JSON.parse(text) as Body;
}

type Setup = { authorization: string; agentId: string; inboundPath: string };

/** An organization with credits, an agent and its channel of the platform, through the API. */
async function setUp(base: string, platform: BenchPlatform): Promise<Setup> {
  const admin = `Bearer ${ADMIN_TOKEN}`;
  const created = await call<{ organization: { id: string }; apiKey: string }>(
    base,
    admin,
    "POST",
    "/api/admin/organizations",
    201,
    { name: "Channel bench" },
  );
  await call(
    base,
    admin,
    "POST",
    `/api/admin/organizations/${created.organization.id}/credits`,
    201,
    {
      amount: 1_000_000,
    },
  );
  const authorization = `Bearer ${created.apiKey}`;
  const agent = await call<{ id: string }>(base, authorization, "POST", "/api/agents", 201, {
    name: "Support",
    modelName: "gpt_4o_mini",
  });
  const channel = await call<{ webhookUrl: string; inboundToken?: string }>(
    base,
    authorization,
    "POST",
    `/api/agents/${agent.id}/channels`,
    201,
    platform.channelBody,
  );
  platform.created?.(channel);
  return { authorization, agentId: agent.id, inboundPath: new URL(channel.webhookUrl).pathname };
}

type StoredMessage = { from: string; text: string; delivery?: { status: string } };

/**
 * The stored side of the same question, read through the API: per chat, customer messages stored
 * more than once, and chats whose stored answers differ in number from the answers sent.
 */
async function checkStored(base: string, setup: Setup, platform: BenchPlatform) {
  const conversations: Array<{ id: string; channelExternalId: string | null }> = [];
  let cursor: string | null = null;
  do {
    const query = `agentId=${setup.agentId}&limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
    const page: { data: typeof conversations; nextCursor: string | null } = await call(
      base,
      setup.authorization,
      "GET",
      `/api/conversations?${query}`,
      200,
    );
    conversations.push(...page.data);
    cursor = page.nextCursor;
  } while (cursor);
  const sent = answersByChat(platform.sends(), platform.read);
  let storedTwice = 0;
  let answerCountMismatches = 0;
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < conversations.length) {
        const conversation = conversations[next++]!;
        const { messages } = await call<{ messages: StoredMessage[] }>(
          base,
          setup.authorization,
          "GET",
          `/api/conversations/${encodeURIComponent(conversation.id)}?agentId=${setup.agentId}`,
          200,
        );
        const customer = messages.filter((message) => message.from === "human");
        storedTwice += customer.length - new Set(customer.map((message) => message.text)).size;
        const answers = messages.filter((message) => message.from === "agent").length;
        const chatId = platform.chatOf(conversation.channelExternalId ?? "");
        if (answers !== (sent.get(chatId)?.length ?? 0)) {
          answerCountMismatches += 1;
        }
      }
    }),
  );
  return { conversations: conversations.length, storedTwice, answerCountMismatches };
}

/** Until every planned message is in an answer sent, or the drain time is up. */
async function waitForAnswers(platform: BenchPlatform, planned: PlannedUpdate[], seconds: number) {
  const deadline = Date.now() + seconds * 1000;
  const wanted = planned.length;
  for (;;) {
    const answered = [...answersByChat(platform.sends(), platform.read).values()]
      .flat()
      .reduce((sum, answer) => sum + answer.sequences.length, 0);
    if (answered >= wanted || Date.now() > deadline) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

type Deployment = { bases: string[]; close(): Promise<void> };

async function startEmbedded(
  env: Record<string, string>,
  withWorker: boolean,
): Promise<Deployment> {
  const database: Database = await openDatabase({ kind: "pglite", dataDir: null });
  const app = await startTestApp({
    database,
    env: { ...env, SECRETS_KEY },
    role: withWorker ? "all" : "api",
  });
  const base = await app.listen("api");
  return {
    bases: [base],
    async close() {
      await app.close();
      await database.close();
    },
  };
}

async function startProcesses(
  env: Record<string, string>,
  withWorker: boolean,
): Promise<Deployment> {
  const serverUrl =
    process.env.BENCH_DATABASE_URL ??
    process.env.TEST_DATABASE_URL ??
    "postgres://postgres@127.0.0.1:5432/test";
  buildIfStale();
  const fresh = await freshPostgres(serverUrl);
  const processEnv = {
    ...env,
    DATABASE_URL: fresh.url,
    ADMIN_TOKEN,
    BOOTSTRAP_DEFAULT_ORG: "false",
    SECRETS_KEY,
  };
  const services: RunningService[] = [];
  try {
    // One after the other: the database is migrated already, but each boot also starts pg-boss.
    services.push(await startService("api", processEnv));
    services.push(await startService("api", processEnv));
    if (withWorker) services.push(await startService("worker", processEnv));
  } catch (error) {
    await Promise.all(services.map((service) => service.stop()));
    await fresh.dispose();
    throw error;
  }
  return {
    bases: services.flatMap((service) => (service.apiUrl ? [service.apiUrl] : [])),
    async close() {
      await Promise.all(services.map((service) => service.stop()));
      await fresh.dispose();
    },
  };
}

export async function run(args: string[]): Promise<void> {
  const options = parseOptions(args);
  const [fake, platform]: [FakeOpenAI, BenchPlatform] = await Promise.all([
    startFakeOpenAI({ apiKey: "sk-bench", defaultChat: echoSequences }),
    BENCH_PLATFORMS[options.type](),
  ]);
  const env = {
    OPENAI_API_KEY: "sk-bench",
    OPENAI_BASE_URL: fake.url,
    ...platform.env,
    CHANNEL_BATCH_DELAY_MS: String(options.delayMs),
    PUBLIC_URL: "https://agents.example.com",
  };
  const deployment = options.pg
    ? await startProcesses(env, !options.acksOnly)
    : await startEmbedded(env, !options.acksOnly);
  const setup = await setUp(deployment.bases[0]!, platform);

  const planned = planUpdates(
    Math.round(options.rate * options.seconds),
    options.chats,
    options.burst,
    platform.body,
  );
  const load = await runOpenLoop({
    targets: deployment.bases,
    path: setup.inboundPath,
    headers: {},
    bodies: planned.map((update) => update.body),
    bodyHeaders: planned.map((update) => platform.headersOf(update.body)),
    intervalMs: 1000 / options.rate,
    connections: 128,
  });
  if (!options.acksOnly) {
    await waitForAnswers(platform, planned, options.drainSeconds);
    // Late duplicates would come after the last expected answer: a batching delay or two more.
    await new Promise((resolve) => setTimeout(resolve, 2 * options.delayMs + 1_000));
  }
  const figures: ChannelFigures = analyse({
    planned,
    copies: deployment.bases.length,
    load,
    sends: platform.sends(),
    read: platform.read,
    modelCalls: fake.requests.filter((request) => request.path === "/v1/chat/completions").length,
    warmUpUpdates: WARM_UP_SECONDS * options.rate,
  });
  const stored = await checkStored(deployment.bases[0]!, setup, platform);

  await deployment.close();
  await Promise.all([fake.close(), platform.close()]);
  const workers = options.acksOnly ? "no worker" : options.pg ? "1 worker" : "worker";
  const label = options.pg ? `PostgreSQL, 2 API + ${workers}` : `PGlite, one process, ${workers}`;
  const ms = (value: number) => value.toFixed(1);
  process.stdout.write(
    `${platform.label} on 127.0.0.1, ${label}: ${planned.length} updates at ${options.rate}/s` +
      ` (${options.chats} chats, bursts of ${options.burst} 50 ms apart), each sent` +
      ` ${deployment.bases.length}×; CHANNEL_BATCH_DELAY_MS=${options.delayMs};` +
      " zero-latency fake model and platform API\n\n",
  );
  process.stdout.write(
    `${formatTable([
      {
        requests: figures.requests,
        "ack p50 ms": ms(figures.ackP50),
        "p95 ms": ms(figures.ackP95),
        "p99 ms": ms(figures.ackP99),
        "max ms": ms(figures.ackMax),
        [`p99 after ${WARM_UP_SECONDS} s ms`]: ms(figures.ackP99AfterWarmUp),
        "non-200": figures.ackErrors,
        "sender lag max ms": ms(figures.senderLagMax),
      },
    ])}\n\n`,
  );
  if (options.acksOnly) process.exit(0);
  process.stdout.write(
    `${formatTable([
      {
        answers: figures.answers,
        "model calls": figures.modelCalls,
        "messages/answer": figures.messagesPerAnswer.toFixed(2),
        "answers/s": figures.answersPerSecond.toFixed(1),
        "until last answer s": figures.drainSeconds.toFixed(1),
        "ack→send p50 ms": figures.inboundToSendP50.toFixed(0),
        "p99 ms": figures.inboundToSendP99.toFixed(0),
        "answered twice": figures.duplicates,
        unanswered: figures.missing,
        "out of order": `${figures.orderViolations} (${figures.chatsOutOfOrder} chats)`,
        "stored twice": stored.storedTwice,
        "chats stored≠sent": `${stored.answerCountMismatches}/${stored.conversations}`,
      },
    ])}\n`,
  );
  process.exit(0);
}
