import { eq } from "drizzle-orm";
import { memberships, users } from "../../src/db/schema/index.ts";
import { hashPassword } from "../../src/domain/accounts/passwords.ts";
import type { Role } from "../../src/domain/accounts/permissions.ts";
import { newId } from "../../src/lib/ids.ts";
import type { TestApp, TestOrganization } from "./app.ts";

export const TEST_PASSWORD = "correct horse battery";

/** What a signed-in browser sends: its cookie, and the page's origin on unsafe methods. */
type SessionHeaders = { cookie: string; origin: string };

export type SignedIn = { userId: string; email: string; headers: SessionHeaders };

/** The `agentdesk_session` cookie of a response, as a `Cookie` header value. */
export function sessionCookieOf(response: { headers: Record<string, unknown> }): string {
  const setCookie = response.headers["set-cookie"];
  const all = Array.isArray(setCookie) ? setCookie : [setCookie];
  const found = all.find((line) => String(line).startsWith("agentdesk_session="));
  if (!found) throw new Error(`no session cookie in ${JSON.stringify(setCookie)}`);
  return String(found).split(";")[0]!;
}

/** The origin the service's own pages have (PUBLIC_URL's default). */
export const ownOrigin = (app: TestApp) => app.config.accounts.publicOrigin;

/** Signs in through POST /api/auth/login. */
export async function signIn(app: TestApp, email: string, password = TEST_PASSWORD) {
  const response = await app.api.inject({
    method: "POST",
    url: "/api/auth/login",
    payload: { email, password },
  });
  if (response.statusCode !== 200) throw new Error(`login: ${response.body}`);
  return { cookie: sessionCookieOf(response), origin: ownOrigin(app) } satisfies SessionHeaders;
}

/**
 * A user with a password who is `role` in the organization (seeded in the database: the
 * invitation flow has tests of its own), signed in through the API.
 */
export async function memberOf(
  app: TestApp,
  org: Pick<TestOrganization, "id">,
  role: Role,
  email = `${role}-${newId().toLowerCase()}@example.com`,
): Promise<SignedIn> {
  const { db } = app.database;
  const userId = newId();
  await db
    .insert(users)
    .values({ id: userId, email, name: role, passwordHash: await hashPassword(TEST_PASSWORD) });
  await db.insert(memberships).values({ organizationId: org.id, userId, role });
  return { userId, email, headers: await signIn(app, email) };
}

/**
 * A user who is `role` in the organization and an instance administrator (as the first owner
 * is, or whom `agentdesk admin grant` names), signed in after being made one.
 */
export async function instanceAdminOf(
  app: TestApp,
  org: Pick<TestOrganization, "id">,
  role: Role = "owner",
): Promise<SignedIn> {
  const user = await memberOf(
    app,
    org,
    role,
    `instance-admin-${newId().toLowerCase()}@example.com`,
  );
  await app.database.db.update(users).set({ instanceAdmin: true }).where(eq(users.id, user.userId));
  // A new session: the one signed in before the grant may be remembered without it.
  return { ...user, headers: await signIn(app, user.email) };
}
