import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";

const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();

export const organizations = pgTable(
  "organizations",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    billingModel: text("billing_model", { enum: ["credits", "legacy"] })
      .notNull()
      .default("credits"),
    plan: text("plan").notNull().default("free"),
    subscriptionStatus: text("subscription_status", { enum: ["active", "past_due", "none"] })
      .notNull()
      .default("none"),
    queryLimit: integer("query_limit"),
    /** Conversations idle longer than this many days are deleted by a daily job; null keeps all. */
    conversationRetentionDays: integer("conversation_retention_days"),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check("organizations_billing_model_check", sql`${table.billingModel} in ('credits', 'legacy')`),
    check(
      "organizations_subscription_status_check",
      sql`${table.subscriptionStatus} in ('active', 'past_due', 'none')`,
    ),
    check(
      "organizations_conversation_retention_days_check",
      sql`${table.conversationRetentionDays} is null or ${table.conversationRetentionDays} >= 1`,
    ),
  ],
);

/**
 * A person (or, for keys made before accounts, a placeholder owner without a login). E-mails
 * are stored lower-cased. A user signs in with a password, an OpenID identity, or both.
 */
export const users = pgTable(
  "users",
  {
    id: text("id").primaryKey(),
    email: text("email").unique(),
    name: text("name"),
    /** scrypt, in the self-describing form of src/domain/accounts/passwords.ts. */
    passwordHash: text("password_hash"),
    oidcIssuer: text("oidc_issuer"),
    oidcSubject: text("oidc_subject"),
    /** May use the instance's administration (leads, organizations) with a session. */
    instanceAdmin: boolean("instance_admin").notNull().default(false),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex("users_oidc_identity_idx").on(table.oidcIssuer, table.oidcSubject)],
);

export const memberships = pgTable(
  "memberships",
  {
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    role: text("role", { enum: ["owner", "admin", "member", "viewer"] })
      .notNull()
      .default("owner"),
    createdAt: createdAt(),
  },
  (table) => [
    primaryKey({ columns: [table.organizationId, table.userId] }),
    index("memberships_user_idx").on(table.userId),
    check("memberships_role_check", sql`${table.role} in ('owner', 'admin', 'member', 'viewer')`),
  ],
);

export const apiKeys = pgTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull().default("default"),
    /** SHA-256 of the key; the key itself is shown once and never stored. */
    keyHash: text("key_hash").notNull().unique(),
    keyPrefix: text("key_prefix").notNull(),
    createdAt: createdAt(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    /** The permissions of the key; null is every permission (keys made before scopes). */
    scopes: text("scopes").array(),
    /** The only agents the key may read or ask; null is every agent of the organization. */
    agentIds: text("agent_ids").array(),
    rateLimitPerMinute: integer("rate_limit_per_minute"),
    /** Micro-credits this key may spend per calendar month (UTC); null is no budget. */
    monthlyBudgetMicro: bigint("monthly_budget_micro", { mode: "number" }),
    expiresAt: timestamp("expires_at", { withTimezone: true }),
  },
  (table) => [
    index("api_keys_organization_idx").on(table.organizationId),
    check(
      "api_keys_rate_limit_check",
      sql`${table.rateLimitPerMinute} is null or ${table.rateLimitPerMinute} >= 1`,
    ),
    check(
      "api_keys_monthly_budget_check",
      sql`${table.monthlyBudgetMicro} is null or ${table.monthlyBudgetMicro} >= 0`,
    ),
  ],
);

/** A grant of credits, spent oldest-expiring first; amounts are integer micro-credits. */
export const creditBuckets = pgTable(
  "credit_buckets",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    grantedMicro: bigint("granted_micro", { mode: "number" }).notNull(),
    remainingMicro: bigint("remaining_micro", { mode: "number" }).notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [
    index("credit_buckets_organization_idx").on(table.organizationId),
    check("credit_buckets_remaining_check", sql`${table.remainingMicro} >= 0`),
  ],
);
