import { sql } from "drizzle-orm";
import {
  check,
  index,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { agents } from "./agents.ts";
import { conversations, messages } from "./conversations.ts";
import { organizations, users } from "./organizations.ts";

/** Reviewer feedback on one agent message (one annotation per message). */
export const annotations = pgTable(
  "annotations",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    messageId: text("message_id")
      .notNull()
      .references(() => messages.id, { onDelete: "cascade" }),
    conversationId: text("conversation_id")
      .notNull()
      .references(() => conversations.id, { onDelete: "cascade" }),
    agentId: text("agent_id")
      .notNull()
      .references(() => agents.id, { onDelete: "cascade" }),
    comment: text("comment").notNull(),
    sentiment: text("sentiment", { enum: ["good", "bad"] }).notNull(),
    /** Free text: the accepted values are each organization's configuration. */
    status: text("status").notNull().default("pending"),
    /** The user who created or last updated it; null for anonymous reviewers. */
    createdById: text("created_by_id").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("annotations_message_idx").on(table.messageId),
    // Keyset pagination walks (created_at, id) newest first inside one organization.
    index("annotations_page_idx").on(table.organizationId, table.createdAt.desc(), table.id.desc()),
    index("annotations_agent_idx").on(table.agentId, table.createdAt.desc(), table.id.desc()),
    index("annotations_conversation_idx").on(table.conversationId),
    check("annotations_sentiment_check", sql`${table.sentiment} in ('good', 'bad')`),
  ],
);

export const annotationTags = pgTable(
  "annotation_tags",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    // "Bug" and "bug" are one tag to a reviewer.
    uniqueIndex("annotation_tags_name_idx").on(table.organizationId, sql`lower(${table.name})`),
  ],
);

export const annotationTagLinks = pgTable(
  "annotation_tag_links",
  {
    annotationId: text("annotation_id")
      .notNull()
      .references(() => annotations.id, { onDelete: "cascade" }),
    tagId: text("tag_id")
      .notNull()
      .references(() => annotationTags.id, { onDelete: "cascade" }),
  },
  (table) => [
    primaryKey({ columns: [table.annotationId, table.tagId] }),
    index("annotation_tag_links_tag_idx").on(table.tagId),
  ],
);

/** Per-organization annotation settings; an organization without a row uses the defaults. */
export const annotationSettings = pgTable("annotation_settings", {
  organizationId: text("organization_id")
    .primaryKey()
    .references(() => organizations.id, { onDelete: "cascade" }),
  /** The statuses PATCH /api/annotations/{id} accepts; always includes "pending". */
  statuses: text("statuses").array().notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});
