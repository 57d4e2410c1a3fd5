import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { rowsOf } from "../../src/db/client.ts";
import { type FakeOpenAI, startFakeOpenAI } from "../fakes/openai-server.ts";
import { createAgent } from "../harness/agents.ts";
import { startTestApp, type TestApp, type TestOrganization } from "../harness/app.ts";
import { testDatabaseKind } from "../harness/database.ts";
import { postSse } from "../harness/sse-client.ts";
import { grantCredits } from "./billing-helpers.ts";

// Every answer costs exactly one credit: 100 output tokens at 10,000 credits per million, and no
// input price. The model takes 300 ms, so every request of a burst is in flight at once.
const MAX_OUTPUT_TOKENS = 100;
const MODELS = { gpt_4o_mini: { inputCreditsPerMillion: 0, outputCreditsPerMillion: 10_000 } };
const MODEL_DELAY_MS = 300;

const workDir = mkdtempSync(join(tmpdir(), "agentdesk-reservations-"));
const modelsFile = join(workDir, "models.json");
writeFileSync(modelsFile, JSON.stringify(MODELS));

let fake: FakeOpenAI;
let first: TestApp;
/** The second process: a child `agentdesk serve --role api` on PostgreSQL, in-process on PGlite. */
let secondUrl: string;
let firstUrl: string;
let child: ChildProcess | undefined;
let second: TestApp | undefined;

function serviceEnv(): Record<string, string> {
  return {
    OPENAI_API_KEY: "sk-test",
    OPENAI_BASE_URL: fake.url,
    MODELS_FILE: modelsFile,
    MODEL_MAX_OUTPUT_TOKENS: String(MAX_OUTPUT_TOKENS),
  };
}

async function startChildApi(databaseUrl: string): Promise<string> {
  const started = spawn(process.execPath, ["bin/agentdesk.js", "serve", "--role", "api"], {
    env: {
      PATH: process.env.PATH,
      ...serviceEnv(),
      DATABASE_URL: databaseUrl,
      PORT: "0",
      SITE_PORT: "0",
      LOG_LEVEL: "warn",
      BOOTSTRAP_DEFAULT_ORG: "false",
    },
  });
  child = started;
  let output = "";
  started.stderr.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  return new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the API did not start: ${output}`)), 50_000);
    started.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const url = /dashboard API: (http:\/\/\S+)/.exec(output)?.[1];
      if (url) {
        clearTimeout(timer);
        resolve(url);
      }
    });
    started.once("exit", (code) => reject(new Error(`the API exited (${code}): ${output}`)));
  });
}

beforeAll(async () => {
  fake = await startFakeOpenAI({
    apiKey: "sk-test",
    defaultChat: {
      text: "One credit's worth of answer.",
      usage: { promptTokens: 50, completionTokens: MAX_OUTPUT_TOKENS },
      delayMs: MODEL_DELAY_MS,
    },
  });
  first = await startTestApp({ env: serviceEnv() });
  firstUrl = await first.listen("api");
  if (testDatabaseKind === "postgres") {
    secondUrl = await startChildApi(first.database.connectionString!);
  } else {
    second = await startTestApp({ env: serviceEnv(), database: first.database, role: "api" });
    secondUrl = await second.listen("api");
  }
}, 90_000);

afterAll(async () => {
  child?.kill("SIGTERM");
  await second?.close();
  await first?.close();
  await fake?.close();
  rmSync(workDir, { recursive: true, force: true });
});

type Outcome = { status: number; answered: boolean; body: string };

/** One question, JSON or streamed, to one of the two processes. */
async function ask(
  baseUrl: string,
  org: TestOrganization,
  agentId: string,
  streaming: boolean,
): Promise<Outcome> {
  const result = await postSse(`${baseUrl}/api/agents/${agentId}/query`, org.auth, {
    query: "What does this cost?",
    streaming,
  });
  const answered = streaming
    ? result.events.some((event) => event.event === "endpoint_response")
    : result.status === 200;
  return { status: result.status, answered, body: result.raw };
}

/** `count` questions at once, alternating processes and JSON/SSE. */
function burst(org: TestOrganization, agentId: string, count: number): Promise<Outcome[]> {
  return Promise.all(
    Array.from({ length: count }, (_, index) =>
      ask(index % 2 === 0 ? firstUrl : secondUrl, org, agentId, index % 4 >= 2),
    ),
  );
}

async function chatLedger(organizationId: string) {
  const rows = rowsOf<{ events: number; charged: string; requested: string }>(
    await first.database.db.execute(sql`
      select count(*)::int as events, coalesce(sum(credits_charged_micro), 0)::text as charged,
        coalesce(sum(credits_requested_micro), 0)::text as requested
      from consumption_events where organization_id = ${organizationId} and feature = 'chat'`),
  );
  const row = rows[0]!;
  return {
    events: row.events,
    charged: Number(row.charged) / 1e6,
    requested: Number(row.requested) / 1e6,
  };
}

async function heldReservations(organizationId: string): Promise<number> {
  const rows = rowsOf<{ held: number }>(
    await first.database.db.execute(
      sql`select count(*)::int as held from credit_reservations
        where organization_id = ${organizationId}`,
    ),
  );
  return rows[0]!.held;
}

describe("two API processes never answer past the credits", () => {
  for (const credits of [1, 4]) {
    test(`${credits} credit(s), ${5 * credits} parallel one-credit questions: at most ${credits + 1} answered, each paid`, async () => {
      const org = await first.createOrganization(`Burst of ${credits}`);
      await grantCredits(first, org.id, credits);
      const agent = await createAgent(first, org, { name: "Priced" });

      const outcomes = await burst(org, agent.id, 5 * credits);

      const answered = outcomes.filter((outcome) => outcome.answered);
      expect(answered.length).toBeGreaterThanOrEqual(1);
      expect(answered.length).toBeLessThanOrEqual(credits + 1);
      for (const outcome of outcomes.filter((candidate) => !candidate.answered)) {
        expect(outcome.status, outcome.body).toBe(402);
        expect(JSON.parse(outcome.body).type).toBe("USAGE_LIMIT");
      }
      const ledger = await chatLedger(org.id);
      expect(ledger.events).toBe(answered.length);
      // Every answer paid in full, but for one last partial answer at most.
      expect(ledger.requested).toBe(answered.length);
      expect(ledger.charged).toBeGreaterThan(answered.length - 1);
      expect(ledger.charged).toBeLessThanOrEqual(credits);
      expect(await heldReservations(org.id)).toBe(0);
    }, 60_000);
  }

  test("the free plan answers at most its 5 messages under 50 parallel questions", async () => {
    const org = await first.createOrganization("Free burst");
    const agent = await createAgent(first, org, { name: "Free" });

    const outcomes = await burst(org, agent.id, 50);

    const answered = outcomes.filter((outcome) => outcome.answered);
    expect(answered.length).toBeGreaterThanOrEqual(1);
    expect(answered.length).toBeLessThanOrEqual(5);
    for (const outcome of outcomes.filter((candidate) => !candidate.answered)) {
      expect(outcome.status, outcome.body).toBe(402);
    }
    expect((await chatLedger(org.id)).events).toBe(answered.length);
    expect(await heldReservations(org.id)).toBe(0);
  }, 60_000);
});
