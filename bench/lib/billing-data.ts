import { sql } from "drizzle-orm";
import { type Database, rowsOf } from "../../src/db/client.ts";
import { agents } from "../../src/db/schema/index.ts";
import {
  createConsumptionEventRepo,
  type LedgerEntryInput,
} from "../../src/domain/billing/consumption-event-repo.ts";
import { INCREMENT_MODELS } from "../../src/domain/billing/usage-models.ts";
import { newId } from "../../src/lib/ids.ts";
import { randomSource } from "./random.ts";

const DAY_MS = 86_400_000;
const YEAR_START = Date.parse("2025-01-01T00:00:00Z");
const AGENTS = 50;
const MODEL_PAIRS = Object.entries(INCREMENT_MODELS).flatMap(([provider, models]) =>
  models.map((modelName) => ({ provider, modelName })),
);

/**
 * A realistic ledger: each agent answers with one model (chat 85 %), and the rest is embeddings,
 * transcription and usage reported through the increment endpoint with any listed model.
 */
function* generateEvents(organizationId: string, agentIds: string[], count: number, seed = 7) {
  const random = randomSource(seed);
  const idPrefix = `bench_${newId()}_`;
  const agentModel = agentIds.map((_, index) => MODEL_PAIRS[index % MODEL_PAIRS.length]!);
  for (let index = 0; index < count; index += 1) {
    const agent = Math.floor(random() * agentIds.length);
    const roll = random();
    const [feature, pair] =
      roll < 0.85
        ? ["chat", agentModel[agent]!]
        : roll < 0.92
          ? ["embeddings", { provider: "openai", modelName: "text-embedding-3-small" }]
          : roll < 0.95
            ? ["transcription", { provider: "openai", modelName: "whisper-1" }]
            : ["agent_run", MODEL_PAIRS[Math.floor(random() * MODEL_PAIRS.length)]!];
    const credits = Math.floor(random() * 20_000);
    const event: LedgerEntryInput = {
      // Sequential ids keep the generated ledger reproducible from its seed.
      id: `${idPrefix}${index}`,
      organizationId,
      agentId: feature === "embeddings" ? null : agentIds[agent]!,
      feature,
      provider: pair.provider,
      modelName: pair.modelName,
      inputTokens: Math.floor(random() * 4_000),
      outputTokens: Math.floor(random() * 800),
      creditsChargedMicro: credits,
      creditsChargedRawMicro: credits,
      creditsRequestedMicro: credits,
      occurredAt: new Date(YEAR_START + Math.floor(random() * 365 * DAY_MS)),
    };
    yield event;
  }
}

/** Loads `count` events of one organization over 2025 and its agents; vacuums on PostgreSQL. */
export async function loadLedger(database: Database, organizationId: string, count: number) {
  const agentIds = Array.from({ length: AGENTS }, () => newId());
  await database.db.insert(agents).values(
    agentIds.map((id, index) => ({
      id,
      organizationId,
      name: `Agent ${index + 1}`,
      modelName: "gpt_4o_mini",
    })),
  );
  const repo = createConsumptionEventRepo(database.db);
  const started = performance.now();
  const chunk: LedgerEntryInput[] = [];
  // Four writers at once on PostgreSQL; PGlite runs them one after another anyway.
  const inFlight = new Set<Promise<void>>();
  for (const event of generateEvents(organizationId, agentIds, count)) {
    chunk.push(event);
    if (chunk.length === 20_000) {
      const write = repo.recordMany(chunk.splice(0)).then(() => {
        inFlight.delete(write);
      });
      inFlight.add(write);
      if (inFlight.size >= 4) await Promise.race(inFlight);
    }
  }
  if (chunk.length > 0) await repo.recordMany(chunk);
  await Promise.all(inFlight);
  if (database.kind === "postgres") {
    await database.db.execute(sql`vacuum analyze consumption_events`);
    await database.db.execute(sql`vacuum analyze consumption_daily_totals`);
  }
  const [totals] = rowsOf<{ rows: string }>(
    await database.db.execute(sql`select count(*)::text as rows from consumption_daily_totals`),
  );
  return { agentIds, seconds: (performance.now() - started) / 1000, dayTotals: totals!.rows };
}
