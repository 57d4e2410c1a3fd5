import {
  and,
  asc,
  count,
  desc,
  eq,
  getTableColumns,
  gte,
  inArray,
  lt,
  type SQL,
  sql,
} from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { agents, consumptionEvents } from "../../db/schema/index.ts";
import type { StatementPart } from "../../db/statement-parts.ts";

export type ConsumptionEventRow = typeof consumptionEvents.$inferSelect;

/** Everything one ledger row holds except its insertion time. */
export type LedgerEntry = Omit<ConsumptionEventRow, "createdAt">;

/** What a writer must give; the rest defaults to null, coefficient 1 and empty metadata. */
export type LedgerEntryInput = Pick<
  LedgerEntry,
  | "id"
  | "organizationId"
  | "feature"
  | "provider"
  | "modelName"
  | "inputTokens"
  | "outputTokens"
  | "creditsChargedMicro"
  | "creditsChargedRawMicro"
  | "creditsRequestedMicro"
  | "occurredAt"
> &
  Partial<LedgerEntry>;

/** An entry whose charge billing_debit decides. */
type UnchargedEntry = Omit<LedgerEntryInput, "creditsChargedMicro">;

/** Filters shared by the list and the summary; the time range is half-open [from, to). */
export type EventFilters = {
  from?: Date | undefined;
  to?: Date | undefined;
  agentId?: string | undefined;
  feature?: string | undefined;
  provider?: string | undefined;
  modelName?: string | undefined;
  conversationId?: string | undefined;
  /** The only agents whose events are read (a key made for some); null or absent is all. */
  agentIds?: readonly string[] | null | undefined;
};

export type EventOrder =
  | "occurredAt_asc"
  | "occurredAt_desc"
  | "creditsCharged_asc"
  | "creditsCharged_desc";

const ORDER: Record<EventOrder, SQL[]> = {
  occurredAt_asc: [asc(consumptionEvents.occurredAt), asc(consumptionEvents.id)],
  occurredAt_desc: [desc(consumptionEvents.occurredAt), desc(consumptionEvents.id)],
  // Exact reverse of creditsCharged_desc, so one index serves both.
  creditsCharged_asc: [
    asc(consumptionEvents.creditsChargedMicro),
    asc(consumptionEvents.occurredAt),
    asc(consumptionEvents.id),
  ],
  creditsCharged_desc: [
    desc(consumptionEvents.creditsChargedMicro),
    desc(consumptionEvents.occurredAt),
    desc(consumptionEvents.id),
  ],
};

const INSERT_BATCH = 5000;

/** The entries as one JSON parameter: cheap to build for thousands of rows, same on both drivers. */
function entriesJson(entries: Array<UnchargedEntry & { creditsChargedMicro?: number }>): string {
  return JSON.stringify(
    entries.map((entry) => ({
      id: entry.id,
      organization_id: entry.organizationId,
      agent_id: entry.agentId ?? null,
      feature: entry.feature,
      provider: entry.provider,
      model_name: entry.modelName,
      input_tokens: entry.inputTokens,
      output_tokens: entry.outputTokens,
      units: entry.units ?? null,
      credits_charged_micro: entry.creditsChargedMicro ?? null,
      credits_charged_raw_micro: entry.creditsChargedRawMicro,
      credits_requested_micro: entry.creditsRequestedMicro,
      billing_coefficient: entry.billingCoefficient ?? 1,
      occurred_at: entry.occurredAt.toISOString(),
      metadata: entry.metadata ?? {},
      conversation_id: entry.conversationId ?? null,
      message_id: entry.messageId ?? null,
      idempotency_key: entry.idempotencyKey ?? null,
      request_hash: entry.requestHash ?? null,
      api_key_id: entry.apiKeyId ?? null,
    })),
  );
}

/**
 * The CTEs `inserted` and `totals` of a ledger write: the rows of `entries` (a FROM item with
 * the columns of entriesJson), with `charged` as their credits charged, inserted and added to
 * their UTC days' totals. Totals are upserted in key order so concurrent writers lock shared
 * rows alike.
 */
function ledgerWrites(entries: SQL, charged: SQL): SQL {
  return sql`
    inserted as (
      insert into consumption_events (id, organization_id, agent_id, feature, provider,
        model_name, input_tokens, output_tokens, units, credits_charged_micro,
        credits_charged_raw_micro, credits_requested_micro, billing_coefficient, occurred_at,
        metadata, conversation_id, message_id, idempotency_key, request_hash, api_key_id)
      select entry.id, entry.organization_id, entry.agent_id, entry.feature, entry.provider,
        entry.model_name, entry.input_tokens, entry.output_tokens, entry.units, ${charged},
        entry.credits_charged_raw_micro, entry.credits_requested_micro,
        entry.billing_coefficient, entry.occurred_at, coalesce(entry.metadata, '{}'::jsonb),
        entry.conversation_id, entry.message_id, entry.idempotency_key, entry.request_hash,
        entry.api_key_id
      from ${entries}
      returning organization_id, occurred_at, agent_id, feature, provider, model_name,
        input_tokens, output_tokens, credits_charged_micro
    ), totals as (
      insert into consumption_daily_totals (organization_id, day, agent_key, feature, provider,
        model_name, event_count, input_tokens, output_tokens, credits_charged_micro)
      select organization_id, date_trunc('day', occurred_at, 'UTC'), coalesce(agent_id, ''),
        feature, provider, model_name, count(*), sum(input_tokens), sum(output_tokens),
        sum(credits_charged_micro)
      from inserted
      group by 1, 2, 3, 4, 5, 6
      order by 1, 2, 3, 4, 5, 6
      on conflict (organization_id, day, agent_key, feature, provider, model_name) do update set
        event_count = consumption_daily_totals.event_count + excluded.event_count,
        input_tokens = consumption_daily_totals.input_tokens + excluded.input_tokens,
        output_tokens = consumption_daily_totals.output_tokens + excluded.output_tokens,
        credits_charged_micro =
          consumption_daily_totals.credits_charged_micro + excluded.credits_charged_micro
    )`;
}

function entriesRecordset(json: string): SQL {
  return sql`jsonb_to_recordset(${json}::jsonb) as entry(
    id text, organization_id text, agent_id text, feature text, provider text,
    model_name text, input_tokens integer, output_tokens integer, units double precision,
    credits_charged_micro bigint, credits_charged_raw_micro bigint,
    credits_requested_micro bigint, billing_coefficient double precision,
    occurred_at timestamptz, metadata jsonb, conversation_id text, message_id text,
    idempotency_key text, request_hash text, api_key_id text)`;
}

/** Inserts entries whose charge is already known, with their day totals, in one statement. */
function insertEntries(entries: LedgerEntryInput[]): SQL {
  const writes = ledgerWrites(
    entriesRecordset(entriesJson(entries)),
    sql`entry.credits_charged_micro`,
  );
  return sql`with ${writes} select count(*)::int as inserted from inserted`;
}

/**
 * A whole charge as a statement part (CTEs `charge`, `inserted`, `totals` and, settling a
 * reservation, `settled`): billing_debit (migrations 0012, 0032) takes the organization's
 * billing lock and debits its credits (within the budget of the key it was made with), the entry is written with what it charged, and the reservation that
 * held credits for it is deleted. Reads the micro-credits charged; null, with nothing written,
 * when the organization does not exist.
 */
function chargePart(
  entry: UnchargedEntry,
  requestedMicro: number,
  reservationId?: string | null,
): StatementPart<number | null> {
  const debit = sql`billing_debit(${entry.organizationId}, ${requestedMicro}::bigint,
    ${entry.occurredAt.toISOString()}::timestamptz, ${entry.apiKeyId ?? null}::text)`;
  const writes = ledgerWrites(
    sql`charge join ${entriesRecordset(entriesJson([entry]))} on charge.micro is not null`,
    sql`charge.micro`,
  );
  const settles = reservationId
    ? sql`, settled as (delete from credit_reservations
        where organization_id = ${entry.organizationId} and id = ${reservationId})`
    : sql``;
  return {
    ctes: sql`charge as materialized (select ${debit} as micro), ${writes}${settles}`,
    row: sql`select charge.micro::text as charged_micro from charge`,
    read: (row) => (row?.charged_micro == null ? null : Number(row.charged_micro)),
  };
}

export function createConsumptionEventRepo(db: Db) {
  function whereOf(organizationId: string, filters: EventFilters): SQL {
    const e = consumptionEvents;
    const conditions: SQL[] = [eq(e.organizationId, organizationId)];
    if (filters.from) conditions.push(gte(e.occurredAt, filters.from));
    if (filters.to) conditions.push(lt(e.occurredAt, filters.to));
    if (filters.agentId !== undefined) conditions.push(eq(e.agentId, filters.agentId));
    if (filters.agentIds) conditions.push(inArray(e.agentId, [...filters.agentIds]));
    if (filters.feature !== undefined) conditions.push(eq(e.feature, filters.feature));
    if (filters.provider !== undefined) conditions.push(eq(e.provider, filters.provider));
    if (filters.modelName !== undefined) conditions.push(eq(e.modelName, filters.modelName));
    if (filters.conversationId !== undefined) {
      conditions.push(eq(e.conversationId, filters.conversationId));
    }
    return and(...conditions)!;
  }

  return {
    chargePart,

    /** Writes many events (imports, benchmarks, tests with explicit occurredAt), batch by batch. */
    async recordMany(entries: LedgerEntryInput[], tx: Db = db): Promise<void> {
      for (let start = 0; start < entries.length; start += INSERT_BATCH) {
        await tx.execute(insertEntries(entries.slice(start, start + INSERT_BATCH)));
      }
    },

    async findByIdempotencyKey(
      organizationId: string,
      idempotencyKey: string,
      tx: Db = db,
    ): Promise<LedgerEntry | null> {
      const { createdAt: _createdAt, ...entryColumns } = getTableColumns(consumptionEvents);
      const [row] = await tx
        .select(entryColumns)
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
