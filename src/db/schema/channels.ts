import { sql } from "drizzle-orm";
import {
  bigint,
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
import { conversations, messages } from "./conversations.ts";
import { organizations } from "./organizations.ts";

/** The platforms an agent can be connected to (DESIGN.md §11). */
export const CHANNEL_TYPES = ["telegram", "whatsapp", "slack", "meta", "chatwoot", "mail"] as const;
export type ChannelType = (typeof CHANNEL_TYPES)[number];

/**
 * One agent connected to one account of a messaging platform. Credentials live only in
 * `credentials`, sealed with SECRETS_KEY (AES-256-GCM); `config` holds what may be shown.
 */
export const channels = pgTable(
  "channels",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    agentId: text("agent_id")
      .notNull()
      .references(() => agents.id, { onDelete: "cascade" }),
    type: text("type", { enum: CHANNEL_TYPES }).notNull(),
    name: text("name").notNull(),
    enabled: boolean("enabled").notNull().default(true),
    /** error: the platform refused us (a token revoked, a send refused for good); see lastError. */
    status: text("status", { enum: ["active", "error"] })
      .notNull()
      .default("active"),
    config: jsonb("config").$type<Record<string, string>>().notNull().default({}),
    /** The secret fields of the config and our webhook secret, as one sealed JSON object. */
    credentials: text("credentials").notNull(),
    lastError: text("last_error"),
    lastEventAt: timestamp("last_event_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("channels_agent_idx").on(table.organizationId, table.agentId, table.createdAt),
    check(
      "channels_type_check",
      sql`${table.type} in ('telegram', 'whatsapp', 'slack', 'meta', 'chatwoot', 'mail')`,
    ),
    check("channels_status_check", sql`${table.status} in ('active', 'error')`),
  ],
);

/** Where an answer goes on the platform: a chat, a number, a Slack thread. */
export type ReplyTarget = Record<string, string>;

/** The customer as the platform names them. */
export type ChannelSender = {
  externalId: string;
  name?: string | undefined;
  phone?: string | undefined;
  email?: string | undefined;
};

/**
 * One platform chat (a Telegram chat, a WhatsApp number, a Slack thread) and its conversation.
 * The row is the conversation's lane: the worker that holds its lease is the only one answering
 * or sending in it, so its messages are answered and sent in order.
 */
export const channelThreads = pgTable(
  "channel_threads",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    channelId: text("channel_id")
      .notNull()
      .references(() => channels.id, { onDelete: "cascade" }),
    threadKey: text("thread_key").notNull(),
    /**
     * Null until its first message is recorded. Erasing the conversation erases the thread with
     * its events and sends (the customer's name and number go with it); the chat's next message
     * starts a new thread and conversation.
     */
    conversationId: text("conversation_id").references(() => conversations.id, {
      onDelete: "cascade",
    }),
    replyTo: jsonb("reply_to").$type<ReplyTarget>().notNull(),
    sender: jsonb("sender").$type<ChannelSender>().notNull(),
    /** The customer's latest message, as the platform dated it (WhatsApp's 24-hour rule). */
    lastInboundAt: timestamp("last_inbound_at", { withTimezone: true }).notNull(),
    leaseUntil: timestamp("lease_until", { withTimezone: true }),
    /**
     * When the lane's queued job is due, while one is queued: a message arriving before then
     * needs no job of its own (one job per burst, not per message).
     */
    turnDueAt: timestamp("turn_due_at", { withTimezone: true, precision: 3 }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("channel_threads_key_idx").on(table.channelId, table.threadKey),
    // Erasing a conversation finds its thread without reading them all.
    index("channel_threads_conversation_idx").on(table.conversationId),
  ],
);

/** A message as the platform sent it, parsed; kept until it is recorded in the conversation. */
export type InboundPayload = {
  text: string;
  audio?: { mediaId: string; mimeType?: string | undefined } | undefined;
  /** Files that came with the message (a mail's attachments), as the message will keep them. */
  attachments?: Array<{ url: string }> | undefined;
};

/**
 * A customer message received on a channel. The unique platform message id is the
 * deduplication: a platform's retry, a second API process or a restart inserts nothing.
 */
export const channelEvents = pgTable(
  "channel_events",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    channelId: text("channel_id")
      .notNull()
      .references(() => channels.id, { onDelete: "cascade" }),
    threadId: text("thread_id")
      .notNull()
      .references(() => channelThreads.id, { onDelete: "cascade" }),
    platformMessageId: text("platform_message_id").notNull(),
    /** Emptied once recorded: the conversation's message is then the only copy of the text. */
    payload: jsonb("payload").$type<InboundPayload>(),
    /** received → recorded (a conversation message) → answered, or failed (nothing sent). */
    state: text("state", { enum: ["received", "recorded", "answered", "failed"] })
      .notNull()
      .default("received"),
    messageId: text("message_id"),
    error: text("error"),
    sentAt: timestamp("sent_at", { withTimezone: true }).notNull(),
    /**
     * The platform's own order of a chat's messages where it has one finer than `sentAt`
     * (Telegram's message_id, Slack's ts in microseconds): a burst is read as it was written,
     * whichever request reached us first.
     */
    platformOrder: bigint("platform_order", { mode: "number" }),
    receivedAt: timestamp("received_at", { withTimezone: true, precision: 3 })
      .notNull()
      .defaultNow(),
  },
  (table) => [
    uniqueIndex("channel_events_platform_id_idx").on(table.channelId, table.platformMessageId),
    index("channel_events_thread_idx").on(table.threadId, table.state, table.receivedAt),
    check(
      "channel_events_state_check",
      sql`${table.state} in ('received', 'recorded', 'answered', 'failed')`,
    ),
  ],
);

export const DELIVERY_STATUSES = ["queued", "sent", "delivered", "read", "failed"] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** One outbound message of a channel conversation and what the platform did with it. */
export const channelSends = pgTable(
  "channel_sends",
  {
    messageId: text("message_id")
      .primaryKey()
      .references(() => messages.id, { onDelete: "cascade" }),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    channelId: text("channel_id")
      .notNull()
      .references(() => channels.id, { onDelete: "cascade" }),
    threadId: text("thread_id")
      .notNull()
      .references(() => channelThreads.id, { onDelete: "cascade" }),
    status: text("status", { enum: DELIVERY_STATUSES }).notNull().default("queued"),
    platformMessageId: text("platform_message_id"),
    error: text("error"),
    attemptCount: integer("attempt_count").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true, precision: 3 })
      .notNull()
      .defaultNow(),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("channel_sends_thread_idx").on(table.threadId, table.status, table.createdAt),
    uniqueIndex("channel_sends_platform_id_idx").on(table.channelId, table.platformMessageId),
    check(
      "channel_sends_status_check",
      sql`${table.status} in ('queued', 'sent', 'delivered', 'read', 'failed')`,
    ),
  ],
);

/**
 * Where the IMAP poller of a mail channel is in its mailbox (mail-imap-poller.ts): the mailbox's
 * UIDVALIDITY and the last UID handed to the inbound path, and the lease of the process that
 * watches it, so one process at a time reads a mailbox and a restart goes on where it stopped.
 */
export const mailMailboxes = pgTable("mail_mailboxes", {
  channelId: text("channel_id")
    .primaryKey()
    .references(() => channels.id, { onDelete: "cascade" }),
  organizationId: text("organization_id")
    .notNull()
    .references(() => organizations.id, { onDelete: "cascade" }),
  /** The IMAP URL and mailbox this state is of: a changed config starts over. */
  source: text("source").notNull(),
  uidValidity: bigint("uid_validity", { mode: "number" }),
  lastUid: bigint("last_uid", { mode: "number" }).notNull().default(0),
  leaseHolder: text("lease_holder"),
  leaseUntil: timestamp("lease_until", { withTimezone: true }),
  /** After a failed connection: not tried again before this. */
  retryAt: timestamp("retry_at", { withTimezone: true }),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});
