import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { describe, expect } from "vitest";
import { rowsOf } from "../../src/db/client.ts";
import { createAgent } from "../harness/agents.ts";
import { startTestApp, type TestApp, type TestOrganization } from "../harness/app.ts";
import { testDatabaseKind } from "../harness/database.ts";
import { appTest } from "../harness/fixtures.ts";
import { postSse } from "../harness/sse-client.ts";
import { grantCredits } from "./billing-helpers.ts";

// Every answer costs exactly one credit: 100 output tokens at 10,000 credits per million, and no
// input price. The model takes 300 ms, so every request of a burst is in flight at once.
const MAX_OUTPUT_TOKENS = 100;
const MODELS = { gpt_4o_mini: { inputCreditsPerMillion: 0, outputCreditsPerMillion: 10_000 } };
const MODEL_DELAY_MS = 300;

const test = appTest()
  .extend("models", { scope: "file" }, MODELS)
  // The app prices the models from a file of `models`, and caps each answer's output tokens.
  .override("env", { scope: "file" }, ({ models }, { onCleanup }) => {
    const workDir = mkdtempSync(join(tmpdir(), "agentdesk-reservations-"));
    onCleanup(() => rmSync(workDir, { recursive: true, force: true }));
    const modelsFile = join(workDir, "models.json");
    writeFileSync(modelsFile, JSON.stringify(models));
    return { MODELS_FILE: modelsFile, MODEL_MAX_OUTPUT_TOKENS: String(MAX_OUTPUT_TOKENS) };
  })
  // Every chat answer of the fake is one credit's worth, and slow.
  .override("fake", { scope: "file" }, ({ service: { fake } }) => {
    fake.setDefaultChat({
      text: "One credit's worth of answer.",
      usage: { promptTokens: 50, completionTokens: MAX_OUTPUT_TOKENS },
      delayMs: MODEL_DELAY_MS,
    });
    return fake;
  })
  .extend("firstUrl", { scope: "file" }, ({ app }) => app.listen("api"))
  // The second process: a child `agentdesk serve --role api` on PostgreSQL, in-process on PGlite.
  .extend("secondUrl", { scope: "file" }, async ({ app, env, fake }, { onCleanup }) => {
    const serviceEnv = { OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: fake.url, ...env };
    if (testDatabaseKind === "postgres") {
      const { child, url } = spawnChildApi({
        ...serviceEnv,
        DATABASE_URL: app.database.connectionString!,
      });
      onCleanup(() => {
        child.kill("SIGTERM");
      });
      return url;
    }
    const second = await startTestApp({ env: serviceEnv, database: app.database, role: "api" });
    onCleanup(() => second.close());
    return second.listen("api");
  });

/** `agentdesk serve --role api` as a child process; `url` is its dashboard API's, once it is up. */
function spawnChildApi(env: Record<string, string>): { child: ChildProcess; url: Promise<string> } {
  const started = spawn(process.execPath, ["bin/agentdesk.js", "serve", "--role", "api"], {
    env: {
      PATH: process.env.PATH,
      ...env,
      PORT: "0",
      SITE_PORT: "0",
      LOG_LEVEL: "warn",
      BOOTSTRAP_DEFAULT_ORG: "false",
    },
  });
  let output = "";
  started.stderr.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  const url = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      started.kill("SIGTERM");
      reject(new Error(`the API did not start: ${output}`));
    }, 50_000);
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
  return { child: started, url };
}

// Both processes start before the first burst, within the time a child's start may take.
test.beforeAll(async ({ firstUrl, secondUrl }) => {
  void firstUrl;
  void secondUrl;
}, 90_000);

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
function burst(
  { firstUrl, secondUrl }: { firstUrl: string; secondUrl: string },
  org: TestOrganization,
  agentId: string,
  count: number,
): Promise<Outcome[]> {
  return Promise.all(
    Array.from({ length: count }, (_, index) =>
      ask(index % 2 === 0 ? firstUrl : secondUrl, org, agentId, index % 4 >= 2),
    ),
  );
}

async function chatLedger(app: TestApp, organizationId: string) {
  const rows = rowsOf<{ events: number; charged: string; requested: string }>(
    await app.database.db.execute(sql`
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

async function heldReservations(app: TestApp, organizationId: string): Promise<number> {
  const rows = rowsOf<{ held: number }>(
    await app.database.db.execute(
      sql`select count(*)::int as held from credit_reservations
        where organization_id = ${organizationId}`,
    ),
  );
  return rows[0]!.held;
}

describe("two API processes never answer past the credits", () => {
  for (const credits of [1, 4]) {
    test(`${credits} credit(s), ${5 * credits} parallel one-credit questions: at most ${credits + 1} answered, each paid`, async ({
      app,
      firstUrl,
      secondUrl,
    }) => {
      const org = await app.createOrganization(`Burst of ${credits}`);
      await grantCredits(app, org.id, credits);
      const agent = await createAgent(app, org, { name: "Priced" });

      const outcomes = await burst({ firstUrl, secondUrl }, org, agent.id, 5 * credits);

      const answered = outcomes.filter((outcome) => outcome.answered);
      expect(answered.length).toBeGreaterThanOrEqual(1);
      expect(answered.length).toBeLessThanOrEqual(credits + 1);
      for (const outcome of outcomes.filter((candidate) => !candidate.answered)) {
        expect(outcome.status, outcome.body).toBe(402);
        expect(JSON.parse(outcome.body).type).toBe("USAGE_LIMIT");
      }
      const ledger = await chatLedger(app, org.id);
      expect(ledger.events).toBe(answered.length);
      // Every answer paid in full, but for one last partial answer at most.
      expect(ledger.requested).toBe(answered.length);
      expect(ledger.charged).toBeGreaterThan(answered.length - 1);
      expect(ledger.charged).toBeLessThanOrEqual(credits);
      expect(await heldReservations(app, org.id)).toBe(0);
    }, 60_000);
  }

  test("the free plan answers at most its 5 messages under 50 parallel questions", async ({
    app,
    firstUrl,
    secondUrl,
  }) => {
    const org = await app.createOrganization("Free burst");
    const agent = await createAgent(app, org, { name: "Free" });

    const outcomes = await burst({ firstUrl, secondUrl }, org, agent.id, 50);

    const answered = outcomes.filter((outcome) => outcome.answered);
    expect(answered.length).toBeGreaterThanOrEqual(1);
    expect(answered.length).toBeLessThanOrEqual(5);
    for (const outcome of outcomes.filter((candidate) => !candidate.answered)) {
      expect(outcome.status, outcome.body).toBe(402);
    }
    expect((await chatLedger(app, org.id)).events).toBe(answered.length);
    expect(await heldReservations(app, org.id)).toBe(0);
  }, 60_000);
});
