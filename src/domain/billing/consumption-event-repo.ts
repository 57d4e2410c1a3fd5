import { and, asc, count, desc, eq, gte, inArray, lt, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { agents, consumptionDailyTotals, consumptionEvents } from "../../db/schema/index.ts";

export type ConsumptionEventRow = typeof consumptionEvents.$inferSelect;
export type NewConsumptionEvent = typeof consumptionEvents.$inferInsert & { occurredAt: Date };

/** Filters shared by the list and the summary; the time range is half-open [from, to). */
export type EventFilters = {
  from?: Date | undefined;
  to?: Date | undefined;
  agentId?: string | undefined;
  feature?: string | undefined;
  provider?: string | undefined;
  modelName?: string | undefined;
  conversationId?: string | undefined;
};

export type EventOrder =
  | "occurredAt_asc"
  | "occurredAt_desc"
  | "creditsCharged_asc"
  | "creditsCharged_desc";

const ORDER: Record<EventOrder, SQL[]> = {
  occurredAt_asc: [asc(consumptionEvents.occurredAt), asc(consumptionEvents.id)],
  occurredAt_desc: [desc(consumptionEvents.occurredAt), desc(consumptionEvents.id)],
  creditsCharged_asc: [
    asc(consumptionEvents.creditsChargedMicro),
    desc(consumptionEvents.occurredAt),
    desc(consumptionEvents.id),
  ],
  creditsCharged_desc: [
    desc(consumptionEvents.creditsChargedMicro),
    desc(consumptionEvents.occurredAt),
    desc(consumptionEvents.id),
  ],
};

const INSERT_BATCH = 1000;

/** The UTC day an instant falls in, as the instant of its midnight. */
export function utcDay(instant: Date): Date {
  return new Date(Date.UTC(instant.getUTCFullYear(), instant.getUTCMonth(), instant.getUTCDate()));
}

export function createConsumptionEventRepo(db: Db) {
  /** Adds the events to their days' totals; one upsert per distinct day and dimension. */
  async function addToDailyTotals(events: NewConsumptionEvent[], tx: Db) {
    const totals = new Map<string, typeof consumptionDailyTotals.$inferInsert>();
    for (const event of events) {
      const day = utcDay(event.occurredAt);
      const agentKey = event.agentId ?? "";
      const key = [day.getTime(), agentKey, event.feature, event.provider, event.modelName].join(
        "\u0000",
      );
      const total = totals.get(key) ?? {
        organizationId: event.organizationId,
        day,
        agentKey,
        feature: event.feature,
        provider: event.provider,
        modelName: event.modelName,
        eventCount: 0,
        inputTokens: 0,
        outputTokens: 0,
        creditsChargedMicro: 0,
      };
      total.eventCount += 1;
      total.inputTokens += event.inputTokens ?? 0;
      total.outputTokens += event.outputTokens ?? 0;
      total.creditsChargedMicro += event.creditsChargedMicro;
      totals.set(key, total);
    }
    const t = consumptionDailyTotals;
    await tx
      .insert(t)
      .values([...totals.values()])
      .onConflictDoUpdate({
        target: [t.organizationId, t.day, t.agentKey, t.feature, t.provider, t.modelName],
        set: {
          eventCount: sql`${t.eventCount} + excluded.event_count`,
          inputTokens: sql`${t.inputTokens} + excluded.input_tokens`,
          outputTokens: sql`${t.outputTokens} + excluded.output_tokens`,
          creditsChargedMicro: sql`${t.creditsChargedMicro} + excluded.credits_charged_micro`,
        },
      });
  }

  function whereOf(organizationId: string, filters: EventFilters): SQL {
    const e = consumptionEvents;
    const conditions: SQL[] = [eq(e.organizationId, organizationId)];
    if (filters.from) conditions.push(gte(e.occurredAt, filters.from));
    if (filters.to) conditions.push(lt(e.occurredAt, filters.to));
    if (filters.agentId !== undefined) conditions.push(eq(e.agentId, filters.agentId));
    if (filters.feature !== undefined) conditions.push(eq(e.feature, filters.feature));
    if (filters.provider !== undefined) conditions.push(eq(e.provider, filters.provider));
    if (filters.modelName !== undefined) conditions.push(eq(e.modelName, filters.modelName));
    if (filters.conversationId !== undefined) {
      conditions.push(eq(e.conversationId, filters.conversationId));
    }
    return and(...conditions)!;
  }

  return {
    /** Writes one event and its day's totals; call it inside the charge transaction. */
    async record(event: NewConsumptionEvent, tx: Db = db): Promise<ConsumptionEventRow> {
      const [row] = await tx.insert(consumptionEvents).values(event).returning();
      await addToDailyTotals([event], tx);
      return row!;
    },

    /** Writes many events (imports, benchmarks, tests with explicit occurredAt) in batches. */
    async recordMany(events: NewConsumptionEvent[], tx: Db = db): Promise<void> {
      for (let start = 0; start < events.length; start += INSERT_BATCH) {
        const batch = events.slice(start, start + INSERT_BATCH);
        await tx.transaction(async (batchTx) => {
          await batchTx.insert(consumptionEvents).values(batch);
          await addToDailyTotals(batch, batchTx);
        });
      }
    },

    async findByIdempotencyKey(
      organizationId: string,
      idempotencyKey: string,
      tx: Db = db,
    ): Promise<ConsumptionEventRow | null> {
      const [row] = await tx
        .select()
        .from(consumptionEvents)
        .where(
          and(
            eq(consumptionEvents.organizationId, organizationId),
            eq(consumptionEvents.idempotencyKey, idempotencyKey),
          ),
        );
      return row ?? null;
    },

    /** Agent messages since `since` (all time when null), counting no further than `cap`. */
    async countAgentMessages(
      organizationId: string,
      features: readonly string[],
      since: Date | null,
      cap: number,
      tx: Db = db,
    ): Promise<number> {
      if (cap <= 0) return 0;
      const e = consumptionEvents;
      const conditions = [eq(e.organizationId, organizationId), inArray(e.feature, [...features])];
      if (since) conditions.push(gte(e.occurredAt, since));
      const capped = tx
        .select({ one: sql`1` })
        .from(e)
        .where(and(...conditions))
        .limit(cap)
        .as("capped");
      const [row] = await tx.select({ total: count() }).from(capped);
      return row?.total ?? 0;
    },

    /** One page of events with their agent's name, and the total count of the filter. */
    async list(
      organizationId: string,
      filters: EventFilters,
      page: { offset: number; limit: number; orderBy: EventOrder },
    ) {
      const where = whereOf(organizationId, filters);
      const rows = await db
        .select({ event: consumptionEvents, agentName: agents.name })
        .from(consumptionEvents)
        .leftJoin(
          agents,
          and(
            eq(agents.id, consumptionEvents.agentId),
            eq(agents.organizationId, consumptionEvents.organizationId),
          ),
        )
        .where(where)
        .orderBy(...ORDER[page.orderBy])
        .limit(page.limit)
        .offset(page.offset);
      const [counted] = await db.select({ total: count() }).from(consumptionEvents).where(where);
      return { rows, total: counted?.total ?? 0 };
    },
  };
}

export type ConsumptionEventRepo = ReturnType<typeof createConsumptionEventRepo>;
