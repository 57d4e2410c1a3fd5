import { bigint, index, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { organizations } from "./organizations.ts";

/**
 * The organizations' live events (DESIGN.md §12), kept an hour for streams that reconnect with
 * Last-Event-ID. `id` is the stream's event id: a trigger of the migration gives each row its id
 * when its transaction commits, under a lock, so ids become visible in increasing order and a
 * reader that resumes after an id never skips a row committed later.
 */
export const liveEvents = pgTable(
  "live_events",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    /** Not a foreign key: an event outlives nothing it names for longer than its hour. */
    agentId: text("agent_id").notNull(),
    /** The conversation's API id (its externalId). */
    conversationId: text("conversation_id").notNull(),
    name: text("name").notNull(),
    data: jsonb("data").$type<Record<string, unknown>>().notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    // A stream's replay: this organization's events after an id.
    index("live_events_organization_idx").on(table.organizationId, table.id),
  ],
);
