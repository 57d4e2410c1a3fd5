import { sql } from "drizzle-orm";
import {
  boolean,
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
import { organizations, users } from "./organizations.ts";

/** A customer known to an organization (CRM contact), matched by email, phone or userId. */
export const contacts = pgTable(
  "contacts",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    email: text("email"),
    phoneNumber: text("phone_number"),
    firstName: text("first_name"),
    lastName: text("last_name"),
    externalUserId: text("external_user_id"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("contacts_email_idx").on(table.organizationId, table.email),
    index("contacts_phone_idx").on(table.organizationId, table.phoneNumber),
    index("contacts_user_idx").on(table.organizationId, table.externalUserId),
  ],
);

/**
 * A conversation of one agent. Its API id (`conversationId`) is `externalId`, chosen by the client
 * or generated, and unique only within its organization and agent: the same string used by another
 * organization or another agent is another conversation. `id` is the row's own key, which
 * messages, annotations and webhook windows and deliveries reference; the API does not show it.
 */
export const conversations = pgTable(
  "conversations",
  {
    id: text("id").primaryKey(),
    externalId: text("external_id").notNull(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    agentId: text("agent_id")
      .notNull()
      .references(() => agents.id, { onDelete: "cascade" }),
    visitorId: text("visitor_id").notNull(),
    channel: text("channel").notNull().default("api"),
    channelExternalId: text("channel_external_id"),
    status: text("status", { enum: ["UNRESOLVED", "RESOLVED", "HUMAN_REQUESTED"] })
      .notNull()
      .default("UNRESOLVED"),
    /**
     * False while a person handles the conversation (docs/handoff.md): no AI answer is
     * generated or sent in it, on any channel.
     */
    aiEnabled: boolean("ai_enabled").notNull().default(true),
    /** The member handling it, if any. */
    assigneeId: text("assignee_id").references(() => users.id, { onDelete: "set null" }),
    /** When a person was asked for, until one replies or the AI takes it back (the metrics). */
    humanRequestedAt: timestamp("human_requested_at", { withTimezone: true }),
    contactId: text("contact_id").references(() => contacts.id, { onDelete: "set null" }),
    metadata: jsonb("metadata").$type<Record<string, unknown>>().notNull().default({}),
    /**
     * Started by query-agent without an API key (a visitor of a public agent): the only
     * conversations a caller without a key may add to, and only with their visitorId.
     */
    startedAnonymously: boolean("started_anonymously").notNull().default(false),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    // Serves lookups by (organization, id) and by (organization, id, agent) alike.
    uniqueIndex("conversations_external_id_idx").on(
      table.organizationId,
      table.externalId,
      table.agentId,
    ),
    index("conversations_agent_idx").on(table.organizationId, table.agentId, table.createdAt),
    // The list's default order (newest first, keyset by (createdAt, id)) without an agent.
    index("conversations_created_idx").on(table.organizationId, table.createdAt, table.id),
    index("conversations_external_idx").on(table.organizationId, table.channelExternalId),
    // An organization's conversations by last activity: the inbox (sort=lastActivity, keyset by
    // (updatedAt, id)) and the retention sweep.
    index("conversations_activity_idx").on(table.organizationId, table.updatedAt, table.id),
    // The inbox of one status (the conversations waiting for a person), by last activity.
    index("conversations_status_activity_idx").on(
      table.organizationId,
      table.status,
      table.updatedAt,
      table.id,
    ),
    // The conversations waiting for a person (a gauge read at every scrape of /metrics).
    index("conversations_waiting_idx")
      .on(table.organizationId)
      .where(sql`${table.status} = 'HUMAN_REQUESTED' and ${table.aiEnabled} = false`),
    check(
      "conversations_status_check",
      sql`${table.status} in ('UNRESOLVED', 'RESOLVED', 'HUMAN_REQUESTED')`,
    ),
  ],
);

/**
 * A passage as stored with the answer that used it (toStoredSource): its `source` and `chunk`
 * (the spec's fields), and what identifies the chunk.
 */
export type StoredSource = { source: string; chunk: string; [key: string]: unknown };
export type MessageUsage = {
  completionTokens: number;
  promptTokens: number;
  totalTokens: number;
  cost: number;
};

export const messages = pgTable(
  "messages",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    conversationId: text("conversation_id")
      .notNull()
      .references(() => conversations.id, { onDelete: "cascade" }),
    /** The agent that wrote or answered; null only for imported or orphaned messages. */
    agentId: text("agent_id").references(() => agents.id, { onDelete: "set null" }),
    from: text("from", { enum: ["human", "agent"] }).notNull(),
    text: text("text").notNull(),
    sources: jsonb("sources").$type<StoredSource[]>().notNull().default([]),
    usage: jsonb("usage").$type<MessageUsage>(),
    attachments: jsonb("attachments").$type<Array<{ url: string }>>().notNull().default([]),
    metadata: jsonb("metadata").$type<Record<string, unknown>>().notNull().default({}),
    isDraft: boolean("is_draft").notNull().default(false),
    /** The agent's version (agent_versions) whose fields wrote an AI answer; null otherwise. */
    agentVersion: integer("agent_version"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("messages_conversation_idx").on(table.conversationId, table.createdAt),
    index("messages_organization_idx").on(table.organizationId, table.createdAt),
    // The export walks one agent's messages in (createdAt, id) order, a keyset page at a time.
    index("messages_agent_created_idx").on(table.agentId, table.createdAt, table.id),
    check("messages_from_check", sql`${table.from} in ('human', 'agent')`),
  ],
);
