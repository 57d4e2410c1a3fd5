import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { apiKeys, organizations } from "./organizations.ts";

/**
 * The ledger: one row per metered action, written in the same transaction as the bucket debit.
 * Amounts are integer micro-credits. agent/conversation/message ids carry no foreign key on
 * purpose: the ledger is history and must survive the deletion of what it mentions.
 */
export const consumptionEvents = pgTable(
  "consumption_events",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    agentId: text("agent_id"),
    feature: text("feature").notNull(),
    provider: text("provider").notNull(),
    modelName: text("model_name").notNull(),
    inputTokens: integer("input_tokens").notNull().default(0),
    outputTokens: integer("output_tokens").notNull().default(0),
    units: doublePrecision("units"),
    /** What was debited (after the coefficient, capped by the balance for bucket-funded orgs). */
    creditsChargedMicro: bigint("credits_charged_micro", { mode: "number" }).notNull(),
    /** The price of the tokens or units before the coefficient. */
    creditsChargedRawMicro: bigint("credits_charged_raw_micro", { mode: "number" }).notNull(),
    /** Raw times coefficient: what would have been charged with enough balance. */
    creditsRequestedMicro: bigint("credits_requested_micro", { mode: "number" }).notNull(),
    billingCoefficient: doublePrecision("billing_coefficient").notNull().default(1),
    occurredAt: timestamp("occurred_at", { withTimezone: true }).notNull(),
    metadata: jsonb("metadata").$type<Record<string, unknown>>().notNull().default({}),
    conversationId: text("conversation_id"),
    messageId: text("message_id"),
    /** Set for POST /api/usage/increment-agent-queries with an Idempotency-Key header. */
    idempotencyKey: text("idempotency_key"),
    requestHash: text("request_hash"),
    /** The key the charge was made with (its monthly budget); null for sessions and the rest. */
    apiKeyId: text("api_key_id"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("consumption_events_time_idx").on(table.organizationId, table.occurredAt),
    index("consumption_events_agent_idx").on(table.organizationId, table.agentId, table.occurredAt),
    index("consumption_events_feature_idx").on(
      table.organizationId,
      table.feature,
      table.occurredAt,
    ),
    index("consumption_events_conversation_idx").on(table.organizationId, table.conversationId),
    // Serves orderBy creditsCharged in both directions (ties broken by the same columns).
    index("consumption_events_credits_idx").on(
      table.organizationId,
      table.creditsChargedMicro,
      table.occurredAt,
      table.id,
    ),
    uniqueIndex("consumption_events_idempotency_idx").on(
      table.organizationId,
      table.idempotencyKey,
    ),
    check(
      "consumption_events_amounts_check",
      sql`${table.creditsChargedMicro} >= 0 and ${table.creditsChargedRawMicro} >= 0 and ${table.creditsRequestedMicro} >= ${table.creditsChargedMicro} and ${table.inputTokens} >= 0 and ${table.outputTokens} >= 0`,
    ),
  ],
);

/**
 * Per UTC day totals of the ledger, maintained in the charge transaction, so a summary over a
 * long range reads days instead of every event. `agentKey` is '' for events without an agent
 * (a primary key column cannot be null).
 */
export const consumptionDailyTotals = pgTable(
  "consumption_daily_totals",
  {
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    day: timestamp("day", { withTimezone: true }).notNull(),
    agentKey: text("agent_key").notNull(),
    feature: text("feature").notNull(),
    provider: text("provider").notNull(),
    modelName: text("model_name").notNull(),
    eventCount: bigint("event_count", { mode: "number" }).notNull(),
    inputTokens: bigint("input_tokens", { mode: "number" }).notNull(),
    outputTokens: bigint("output_tokens", { mode: "number" }).notNull(),
    creditsChargedMicro: bigint("credits_charged_micro", { mode: "number" }).notNull(),
  },
  (table) => [
    primaryKey({
      name: "consumption_daily_totals_pk",
      columns: [
        table.organizationId,
        table.day,
        table.agentKey,
        table.feature,
        table.provider,
        table.modelName,
      ],
    }),
  ],
);

/**
 * Credits held for metered actions that are running (a model call), so that concurrent actions
 * of one organization cannot together spend more than it has. Written by billing_reserve under
 * the organization's billing lock, deleted by the charge that settles it (same statement) or by
 * a release; a process that dies leaves rows that stop counting at `expires_at`.
 */
export const creditReservations = pgTable(
  "credit_reservations",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    /** Micro-credits held from the organization's buckets (0 when buckets do not fund it). */
    amountMicro: bigint("amount_micro", { mode: "number" }).notNull(),
    /** Counts as one agent message for the free plan and a legacy query limit. */
    agentMessage: boolean("agent_message").notNull(),
    /** The key whose monthly budget the action runs on, when it has one. */
    apiKeyId: text("api_key_id"),
    /** Micro-credits held from that key's monthly budget (0 when it has none). */
    budgetMicro: bigint("budget_micro", { mode: "number" }).notNull().default(0),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("credit_reservations_organization_idx").on(table.organizationId, table.expiresAt),
    index("credit_reservations_api_key_idx")
      .on(table.apiKeyId)
      .where(sql`${table.apiKeyId} is not null`),
    check("credit_reservations_amount_check", sql`${table.amountMicro} >= 0`),
  ],
);

/**
 * What each key with a monthly budget charged per calendar month (UTC), kept by billing_debit
 * under the organization's billing lock so a reservation reads one row instead of the month's
 * events.
 */
export const apiKeySpending = pgTable(
  "api_key_spending",
  {
    apiKeyId: text("api_key_id")
      .notNull()
      .references(() => apiKeys.id, { onDelete: "cascade" }),
    /** The first instant of the month, UTC. */
    month: timestamp("month", { withTimezone: true }).notNull(),
    spentMicro: bigint("spent_micro", { mode: "number" }).notNull(),
  },
  (table) => [primaryKey({ name: "api_key_spending_pk", columns: [table.apiKeyId, table.month] })],
);
