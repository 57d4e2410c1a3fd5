import { pgTable, text, timestamp } from "drizzle-orm/pg-core";

/** Secrets generated once per installation (e.g. the key for hashing client IPs). */
export const instanceSecrets = pgTable("instance_secrets", {
  name: text("name").primaryKey(),
  value: text("value").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});
