import { type SQL, sql } from "drizzle-orm";
import { type Db, rowsOf } from "../../db/client.ts";
import {
  type EntityGroup,
  type SummaryGroupBy,
  TEMPORAL_GROUPS,
} from "./consumption-summary-request.ts";

export type SummaryQuery = {
  /** Half-open range [from, to). */
  from: Date;
  to: Date;
  groupBy: SummaryGroupBy;
  agentId?: string | undefined;
  feature?: string | undefined;
  provider?: string | undefined;
  /** With a temporal groupBy: each period split by this key as well (its `stacks`). */
  stackBy?: EntityGroup | undefined;
};

type Amounts = {
  creditsChargedMicro: number;
  inputTokens: number;
  outputTokens: number;
  eventCount: number;
};

export type SummaryStack = Amounts & { stackKey: string | null; agentName: string | null };

export type SummaryRow = Amounts & {
  groupKey: string | null;
  agentName: string | null;
  /** With `stackBy`: the period's amounts by that key, most credits first; they add up to it. */
  stacks?: SummaryStack[];
};

type AmountColumns = {
  credits: string;
  input_tokens: string;
  output_tokens: string;
  events: string;
};

const amountsOf = (row: AmountColumns): Amounts => ({
  creditsChargedMicro: Number(row.credits),
  inputTokens: Number(row.input_tokens),
  outputTokens: Number(row.output_tokens),
  eventCount: Number(row.events),
});

/** Rows of (period, stack key), in period order, folded into one row per period. */
function foldStacks(
  rows: Array<
    AmountColumns & {
      group_key: string | null;
      stack_key: string | null;
      agent_name: string | null;
    }
  >,
): SummaryRow[] {
  const periods = new Map<string | null, SummaryRow & { stacks: SummaryStack[] }>();
  for (const row of rows) {
    const amounts = amountsOf(row);
    let period = periods.get(row.group_key);
    if (!period) {
      period = {
        groupKey: row.group_key,
        agentName: null,
        creditsChargedMicro: 0,
        inputTokens: 0,
        outputTokens: 0,
        eventCount: 0,
        stacks: [],
      };
      periods.set(row.group_key, period);
    }
    period.creditsChargedMicro += amounts.creditsChargedMicro;
    period.inputTokens += amounts.inputTokens;
    period.outputTokens += amounts.outputTokens;
    period.eventCount += amounts.eventCount;
    period.stacks.push({ stackKey: row.stack_key, agentName: row.agent_name, ...amounts });
  }
  return [...periods.values()];
}

const DAY_MS = 86_400_000;

/** The UTC midnight that starts the day an instant falls in. */
function utcDay(instant: Date): Date {
  return new Date(Date.UTC(instant.getUTCFullYear(), instant.getUTCMonth(), instant.getUTCDate()));
}

/** The group key of one source: an event's own columns, or a daily total's. */
function keyOf(groupBy: SummaryGroupBy, source: "event" | "total"): SQL {
  const time = source === "event" ? sql.raw("occurred_at") : sql.raw("day");
  switch (groupBy) {
    case "agent":
      return source === "event" ? sql.raw("agent_id") : sql.raw("nullif(agent_key, '')");
    case "feature":
      return sql.raw("feature");
    case "provider":
      return sql.raw("provider");
    case "model":
      return sql.raw("model_name");
    // PostgreSQL weeks start on Monday (ISO 8601); truncation happens in UTC.
    case "day":
    case "week":
    case "month":
      return sql`date_trunc(${sql.raw(`'${groupBy}'`)}, ${time} at time zone 'UTC')`;
  }
}

function filtersOf(query: SummaryQuery, source: "event" | "total"): SQL {
  const parts: SQL[] = [];
  if (query.agentId !== undefined) {
    parts.push(
      source === "event"
        ? sql` and agent_id = ${query.agentId}`
        : sql` and agent_key = ${query.agentId}`,
    );
  }
  if (query.feature !== undefined) parts.push(sql` and feature = ${query.feature}`);
  if (query.provider !== undefined) parts.push(sql` and provider = ${query.provider}`);
  return sql.join(parts, sql``);
}

/**
 * Aggregates the ledger: whole UTC days inside the range come from the daily totals, the partial
 * days at either edge from the events themselves, so the answer equals an aggregate over events.
 */
export function createConsumptionSummaryRepo(db: Db) {
  return {
    async summarize(organizationId: string, query: SummaryQuery): Promise<SummaryRow[]> {
      const fromIso = query.from.toISOString();
      const toIso = query.to.toISOString();
      const firstWholeDay = utcDay(new Date(query.from.getTime() + DAY_MS - 1));
      const endOfWholeDays = utcDay(query.to);
      const hasWholeDays = firstWholeDay < endOfWholeDays;
      // Without whole days both edges collapse onto `to`, leaving the events of [from, to).
      const wholeFrom = (hasWholeDays ? firstWholeDay : query.to).toISOString();
      const wholeTo = (hasWholeDays ? endOfWholeDays : query.to).toISOString();
      const temporal = (TEMPORAL_GROUPS as readonly string[]).includes(query.groupBy);
      const stackBy = temporal ? query.stackBy : undefined;
      // The key that names an agent: the group's, or the stack's when periods are split by agent.
      const agentKey =
        query.groupBy === "agent" ? "group_key" : stackBy === "agent" ? "stack_key" : null;

      const result = await db.execute(sql`
        with parts as (
          select ${keyOf(query.groupBy, "event")} as group_key,
            ${stackBy ? keyOf(stackBy, "event") : sql.raw("null::text")} as stack_key,
            credits_charged_micro as credits, input_tokens::bigint as input_tokens,
            output_tokens::bigint as output_tokens, 1::bigint as events
          from consumption_events
          where organization_id = ${organizationId}
            and ((occurred_at >= ${fromIso}::timestamptz and occurred_at < ${wholeFrom}::timestamptz)
              or (occurred_at >= ${wholeTo}::timestamptz and occurred_at < ${toIso}::timestamptz))
            ${filtersOf(query, "event")}
          union all
          select ${keyOf(query.groupBy, "total")},
            ${stackBy ? keyOf(stackBy, "total") : sql.raw("null::text")},
            credits_charged_micro, input_tokens,
            output_tokens, event_count
          from consumption_daily_totals
          where organization_id = ${organizationId}
            and day >= ${wholeFrom}::timestamptz and day < ${wholeTo}::timestamptz
            ${filtersOf(query, "total")}
        ), grouped as (
          select group_key, stack_key, sum(credits) as credits,
            sum(input_tokens) as input_tokens, sum(output_tokens) as output_tokens,
            sum(events) as events
          from parts
          group by group_key, stack_key
        )
        select
          ${
            temporal
              ? sql.raw(`to_char(group_key, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`)
              : sql.raw("group_key::text")
          } as group_key,
          stack_key::text as stack_key,
          ${agentKey ? sql.raw("agents.name") : sql.raw("null::text")} as agent_name,
          credits::text as credits, input_tokens::text as input_tokens,
          output_tokens::text as output_tokens, events::text as events
        from grouped
        ${
          agentKey
            ? sql`left join agents on agents.id = grouped.${sql.raw(agentKey)} and agents.organization_id = ${organizationId}`
            : sql``
        }
        order by ${
          temporal
            ? sql.raw(
                "grouped.group_key asc, grouped.credits desc, grouped.stack_key asc nulls last",
              )
            : sql.raw("grouped.credits desc, grouped.group_key asc nulls last")
        }`);

      const rows = rowsOf<
        AmountColumns & {
          group_key: string | null;
          stack_key: string | null;
          agent_name: string | null;
        }
      >(result);
      if (stackBy) return foldStacks(rows);
      return rows.map((row) => ({
        groupKey: row.group_key,
        agentName: row.agent_name,
        ...amountsOf(row),
      }));
    },
  };
}

export type ConsumptionSummaryRepo = ReturnType<typeof createConsumptionSummaryRepo>;
