import { and, desc, eq, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { auditEvents } from "../../db/schema/index.ts";
import { newId } from "../../lib/ids.ts";
import { decodePageCursor, pageOf } from "../../lib/page-cursor.ts";

/** Who did it: a signed-in user, an API key, the operator's admin token, or the service. */
export type AuditActor = {
  type: "user" | "key" | "admin" | "system";
  id: string | null;
  email?: string | null | undefined;
};

/** Where the request came from. */
export type AuditOrigin = { ip: string | null; userAgent: string | null };

/** Who made a change and from where, as the services that record it take it. */
export type AuditedBy = { actor: AuditActor; origin?: AuditOrigin | undefined };

export type AuditEvent = {
  organizationId: string | null;
  action: string;
  actor: AuditActor;
  target?: { type: string; id: string } | undefined;
  origin?: AuditOrigin | undefined;
  /** Never a password, token or key: ids, e-mails, roles and names only. */
  details?: Record<string, unknown> | undefined;
};

type AuditRow = typeof auditEvents.$inferSelect;

function auditView(row: AuditRow) {
  return {
    id: row.id,
    action: row.action,
    actor: {
      type: row.actorType,
      id: row.actorId,
      ...(row.actorEmail ? { email: row.actorEmail } : {}),
    },
    target: row.targetType && row.targetId ? { type: row.targetType, id: row.targetId } : null,
    ip: row.ip,
    userAgent: row.userAgent,
    at: row.at.toISOString(),
    details: row.details,
  };
}

export type AuditPageQuery = {
  limit: number;
  cursor?: string | undefined;
  action?: string | undefined;
  actorId?: string | undefined;
};

export function createAuditLog(db: Db) {
  return {
    /** Records an event in the caller's transaction, so it exists exactly when the change does. */
    async record(event: AuditEvent, tx: Db = db): Promise<void> {
      await tx.insert(auditEvents).values({
        id: newId(),
        organizationId: event.organizationId,
        action: event.action,
        actorType: event.actor.type,
        actorId: event.actor.id,
        actorEmail: event.actor.email ?? null,
        targetType: event.target?.type ?? null,
        targetId: event.target?.id ?? null,
        ip: event.origin?.ip ?? null,
        userAgent: event.origin?.userAgent?.slice(0, 512) ?? null,
        details: event.details ?? {},
      });
    },

    /** Failed logins since `since` for this e-mail and from this address. */
    async failedLogins(email: string, ip: string | null, since: Date) {
      const count = (where: SQL) =>
        db
          .select({ n: sql<number>`count(*)::int` })
          .from(auditEvents)
          .where(
            and(eq(auditEvents.action, "login.failed"), where, sql`${auditEvents.at} > ${since}`),
          )
          .then(([row]) => row?.n ?? 0);
      const [byEmail, byIp] = await Promise.all([
        count(eq(auditEvents.actorEmail, email)),
        ip === null ? 0 : count(eq(auditEvents.ip, ip)),
      ]);
      return { byEmail, byIp };
    },

    /** One page of an organization's events, newest first; `nextCursor` null on the last. */
    async page(organizationId: string, query: AuditPageQuery) {
      const before = query.cursor ? decodePageCursor(query.cursor) : null;
      const filters: SQL[] = [eq(auditEvents.organizationId, organizationId)];
      if (query.action) filters.push(eq(auditEvents.action, query.action));
      if (query.actorId) filters.push(eq(auditEvents.actorId, query.actorId));
      if (before) {
        filters.push(
          sql`(${auditEvents.at}, ${auditEvents.id}) < (${before.createdAt}::timestamptz, ${before.id})`,
        );
      }
      const rows = await db
        .select({ row: auditEvents, cursorAt: sql<string>`${auditEvents.at}::text` })
        .from(auditEvents)
        .where(and(...filters))
        .orderBy(desc(auditEvents.at), desc(auditEvents.id))
        .limit(query.limit + 1);
      const { rows: kept, nextCursor } = pageOf(
        rows.map(({ row, cursorAt }) => ({ ...row, cursorAt })),
        query.limit,
      );
      return { data: kept.map(auditView), nextCursor };
    },
  };
}

export type AuditLog = ReturnType<typeof createAuditLog>;
