import { and, asc, eq } from "drizzle-orm";
import { expect } from "vitest";
import { auditEvents, invitations, memberships } from "../../src/db/schema/index.ts";
import type { TestApp } from "../harness/app.ts";

type Credentials = Record<string, string>;

/** A request to the dashboard API with a session's headers or a key's. */
export function call(
  app: TestApp,
  method: "GET" | "POST" | "PATCH" | "DELETE",
  url: string,
  headers: Credentials,
  payload?: unknown,
) {
  return app.api.inject({
    method,
    url,
    headers,
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });
}

/** The audit events of an organization (or of the instance, null), oldest first. */
export async function auditOf(app: TestApp, organizationId: string | null, action?: string) {
  const rows = await app.database.db
    .select()
    .from(auditEvents)
    .orderBy(asc(auditEvents.at), asc(auditEvents.id));
  return rows.filter(
    (row) =>
      (organizationId === null || row.organizationId === organizationId) &&
      (action === undefined || row.action === action),
  );
}

/** No secret appears anywhere in the stored audit events. */
export async function expectNoSecretsInAudit(app: TestApp, secrets: string[]) {
  const all = JSON.stringify(await app.database.db.select().from(auditEvents));
  for (const secret of secrets) expect(all).not.toContain(secret);
}

export async function roleIn(app: TestApp, organizationId: string, userId: string) {
  const [row] = await app.database.db
    .select({ role: memberships.role })
    .from(memberships)
    .where(and(eq(memberships.organizationId, organizationId), eq(memberships.userId, userId)));
  return row?.role ?? null;
}

export async function invitationsOf(app: TestApp, organizationId: string) {
  return app.database.db
    .select()
    .from(invitations)
    .where(eq(invitations.organizationId, organizationId));
}

/** The token of an invitation's accept URL. */
export const tokenOf = (acceptUrl: string) => new URL(acceptUrl).searchParams.get("token")!;
