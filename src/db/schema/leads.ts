import { doublePrecision, index, pgTable, text, timestamp } from "drizzle-orm/pg-core";

export const leads = pgTable(
  "leads",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    email: text("email").notNull(),
    phone: text("phone"),
    source: text("source"),
    postSlug: text("post_slug"),
    company: text("company"),
    industry: text("industry"),
    companySize: text("company_size"),
    area: text("area"),
    hoursPerWeek: text("hours_per_week"),
    aiToday: text("ai_today"),
    score: doublePrecision("score"),
    levelLabel: text("level_label"),
    recommendedAgent: text("recommended_agent"),
    /** Keyed hash of the client IP: enough to spot abuse, not enough to recover the address. */
    ipHash: text("ip_hash"),
    userAgent: text("user_agent"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("leads_created_at_idx").on(table.createdAt)],
);
