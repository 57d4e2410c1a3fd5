import { sql } from "drizzle-orm";
import {
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { agents } from "./agents.ts";
import { conversations } from "./conversations.ts";
import { organizations, users } from "./organizations.ts";

/** Request options of conversational mode that shape the batched answer (the latest message's). */
export type WindowOptions = {
  systemPrompt?: string;
  promptType?: "raw" | "customer_support";
};

/**
 * A batching window of conversational mode: user messages of one conversation waiting for one
 * answer. At most one window per conversation is open; every new message extends its deadline.
 * The row, not process memory, is the truth, so a restart or a second API process changes nothing.
 */
export const webhookWindows = pgTable(
  "webhook_windows",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    agentId: text("agent_id")
      .notNull()
      .references(() => agents.id, { onDelete: "cascade" }),
    conversationId: text("conversation_id")
      .notNull()
      .references(() => conversations.id, { onDelete: "cascade" }),
    /** The webhookUrl of the latest message: the answer goes where the client last asked. */
    webhookUrl: text("webhook_url").notNull(),
    /** open → answering (claimed by a worker until leaseUntil) → answered. */
    state: text("state", { enum: ["open", "answering", "answered"] })
      .notNull()
      .default("open"),
    /** Milliseconds precision, so a job scheduled "at the deadline" never runs a moment early. */
    deadline: timestamp("deadline", { withTimezone: true, precision: 3 }).notNull(),
    leaseUntil: timestamp("lease_until", { withTimezone: true }),
    /** The waiting user messages, in arrival order. */
    messageIds: text("message_ids").array().notNull(),
    options: jsonb("options").$type<WindowOptions>().notNull().default({}),
    /**
     * The key of the latest message (null for a session): the answer is held and charged within
     * its monthly budget. Not a foreign key: a revoked or deleted key's answer is still owed.
     */
    apiKeyId: text("api_key_id"),
    deliveryId: text("delivery_id"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    closedAt: timestamp("closed_at", { withTimezone: true }),
  },
  (table) => [
    uniqueIndex("webhook_windows_open_idx")
      .on(table.conversationId)
      .where(sql`${table.state} = 'open'`),
    index("webhook_windows_conversation_idx").on(table.organizationId, table.conversationId),
    check("webhook_windows_state_check", sql`${table.state} in ('open', 'answering', 'answered')`),
  ],
);

/** The organization's event subscriptions (DESIGN.md §12): these events to this URL. */
export const eventSubscriptions = pgTable(
  "event_subscriptions",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    events: text("events").array().notNull(),
    /** The user who made it (or whose key did): lead.created goes only to instance administrators. */
    createdByUserId: text("created_by_user_id").references(() => users.id, {
      onDelete: "set null",
    }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("event_subscriptions_organization_idx").on(table.organizationId)],
);

/**
 * One webhook event to one URL: an agent's answer in conversational mode, an operator's reply to
 * an api conversation, or an event of a subscription. Its id is the X-Service-Delivery header, the same on every
 * attempt; the body is stored once so every retry sends identical bytes.
 */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    agentId: text("agent_id").references(() => agents.id, { onDelete: "set null" }),
    /** Null for an event about no conversation (lead.created). */
    conversationId: text("conversation_id").references(() => conversations.id, {
      onDelete: "cascade",
    }),
    /** The subscription it is for; null for a conversation's own webhookUrl. */
    subscriptionId: text("subscription_id").references(() => eventSubscriptions.id, {
      onDelete: "cascade",
    }),
    event: text("event").notNull().default("agent.response"),
    url: text("url").notNull(),
    /** The payload's status: success, or error when no answer could be generated. */
    payloadStatus: text("payload_status", { enum: ["success", "error"] }).notNull(),
    payload: text("payload").notNull(),
    /**
     * pending (no attempt yet) → sending (an attempt in flight until leaseUntil) → delivered, or
     * retrying (until nextAttemptAt) and finally failed once the attempts are used up.
     */
    state: text("state", { enum: ["pending", "sending", "retrying", "delivered", "failed"] })
      .notNull()
      .default("pending"),
    attemptCount: integer("attempt_count").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true, precision: 3 })
      .notNull()
      .defaultNow(),
    leaseUntil: timestamp("lease_until", { withTimezone: true }),
    lastError: text("last_error"),
    deliveredAt: timestamp("delivered_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("webhook_deliveries_conversation_idx").on(
      table.organizationId,
      table.conversationId,
      table.createdAt,
    ),
    index("webhook_deliveries_subscription_idx").on(table.subscriptionId, table.createdAt),
    // The recovery sweep: deliveries still waiting for an attempt.
    index("webhook_deliveries_waiting_idx")
      .on(table.nextAttemptAt)
      .where(sql`${table.state} in ('pending', 'retrying')`),
    check(
      "webhook_deliveries_state_check",
      sql`${table.state} in ('pending', 'sending', 'retrying', 'delivered', 'failed')`,
    ),
    check(
      "webhook_deliveries_payload_status_check",
      sql`${table.payloadStatus} in ('success', 'error')`,
    ),
  ],
);

/** Every attempt of a delivery, failed or not, as the receiver answered it. */
export const webhookDeliveryAttempts = pgTable(
  "webhook_delivery_attempts",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    deliveryId: text("delivery_id")
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: "cascade" }),
    attempt: integer("attempt").notNull(),
    /** delivered (2xx), or failed: another status, a timeout, a refused or broken connection. */
    outcome: text("outcome", { enum: ["delivered", "failed"] }).notNull(),
    responseStatus: integer("response_status"),
    /** The first bytes the receiver answered, for debugging an integration. */
    responseSnippet: text("response_snippet"),
    error: text("error"),
    durationMs: integer("duration_ms").notNull(),
    startedAt: timestamp("started_at", { withTimezone: true }).notNull(),
  },
  (table) => [
    uniqueIndex("webhook_delivery_attempts_attempt_idx").on(table.deliveryId, table.attempt),
    check(
      "webhook_delivery_attempts_outcome_check",
      sql`${table.outcome} in ('delivered', 'failed')`,
    ),
  ],
);
