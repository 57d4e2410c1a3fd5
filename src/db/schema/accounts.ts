import { sql } from "drizzle-orm";
import { check, index, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { organizations, users } from "./organizations.ts";

const at = (name: string) => timestamp(name, { withTimezone: true });

/** A signed-in browser: the cookie holds a token whose SHA-256 is the key here. */
export const sessions = pgTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    tokenHash: text("token_hash").notNull().unique(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The organization requests act in when they do not name one (X-Organization-Id). */
    activeOrganizationId: text("active_organization_id").references(() => organizations.id, {
      onDelete: "set null",
    }),
    ip: text("ip"),
    userAgent: text("user_agent"),
    createdAt: at("created_at").notNull().defaultNow(),
    expiresAt: at("expires_at").notNull(),
  },
  (table) => [index("sessions_user_idx").on(table.userId)],
);

/** An offer to join an organization, accepted once through the link mailed or shown. */
export const invitations = pgTable(
  "invitations",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    role: text("role", { enum: ["owner", "admin", "member", "viewer"] }).notNull(),
    tokenHash: text("token_hash").notNull().unique(),
    invitedById: text("invited_by_id").references(() => users.id, { onDelete: "set null" }),
    createdAt: at("created_at").notNull().defaultNow(),
    expiresAt: at("expires_at").notNull(),
    acceptedAt: at("accepted_at"),
  },
  (table) => [
    index("invitations_organization_idx").on(table.organizationId, table.createdAt.desc()),
    index("invitations_email_idx").on(table.email),
    check("invitations_role_check", sql`${table.role} in ('owner', 'admin', 'member', 'viewer')`),
  ],
);

/**
 * One-time tokens, stored hashed: a password reset (for a user) or the first owner's setup
 * link (no user yet).
 */
export const accountTokens = pgTable(
  "account_tokens",
  {
    tokenHash: text("token_hash").primaryKey(),
    purpose: text("purpose", { enum: ["password_reset", "setup"] }).notNull(),
    userId: text("user_id").references(() => users.id, { onDelete: "cascade" }),
    createdAt: at("created_at").notNull().defaultNow(),
    expiresAt: at("expires_at").notNull(),
  },
  (table) => [
    index("account_tokens_user_idx").on(table.userId),
    check("account_tokens_purpose_check", sql`${table.purpose} in ('password_reset', 'setup')`),
  ],
);

/** A sign-in through the OpenID provider between the redirect and the callback. */
export const oidcLogins = pgTable("oidc_logins", {
  state: text("state").primaryKey(),
  nonce: text("nonce").notNull(),
  codeVerifier: text("code_verifier").notNull(),
  createdAt: at("created_at").notNull().defaultNow(),
  expiresAt: at("expires_at").notNull(),
});

/** Security events, written in the transaction of the change they record. */
export const auditEvents = pgTable(
  "audit_events",
  {
    id: text("id").primaryKey(),
    /** Null for events of the instance (a failed login with an unknown e-mail). */
    organizationId: text("organization_id").references(() => organizations.id, {
      onDelete: "cascade",
    }),
    action: text("action").notNull(),
    actorType: text("actor_type", { enum: ["user", "key", "admin", "system"] }).notNull(),
    actorId: text("actor_id"),
    actorEmail: text("actor_email"),
    targetType: text("target_type"),
    targetId: text("target_id"),
    ip: text("ip"),
    userAgent: text("user_agent"),
    details: jsonb("details").$type<Record<string, unknown>>().notNull().default({}),
    at: at("at").notNull().defaultNow(),
  },
  (table) => [
    index("audit_events_page_idx").on(table.organizationId, table.at.desc(), table.id.desc()),
    // Failed logins are counted per e-mail and per address to slow down guessing.
    index("audit_events_failed_login_email_idx")
      .on(table.actorEmail, table.at)
      .where(sql`${table.action} = 'login.failed'`),
    index("audit_events_failed_login_ip_idx")
      .on(table.ip, table.at)
      .where(sql`${table.action} = 'login.failed'`),
    check(
      "audit_events_actor_type_check",
      sql`${table.actorType} in ('user', 'key', 'admin', 'system')`,
    ),
  ],
);
