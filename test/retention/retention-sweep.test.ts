import { eq, inArray, sql } from "drizzle-orm";
import { describe, expect } from "vitest";
import { rowsOf } from "../../src/db/client.ts";
import { annotations, conversations, messages, organizations } from "../../src/db/schema/index.ts";
import { KEPT_EVENT_METADATA } from "../../src/domain/retention/retention-repo.ts";
import { createSeeder, type SeededExchange } from "../annotations/seed.ts";
import type { TestApp, TestOrganization } from "../harness/app.ts";
import { appTest } from "../harness/fixtures.ts";
import { HOOK_TIMEOUT_MS } from "../harness/timeouts.ts";
import { ledgerOf } from "./ledger.ts";

/**
 * The retention setting (PATCH /api/admin/organizations/{id}) and the sweep that applies it
 * (POST /api/admin/retention/run, and the retention.sweep job): exactly the conversations idle
 * longer than their organization's setting go, with everything stored about them; newer ones,
 * organizations without a setting and the ledger stay.
 */

const BATCH_SIZE = 2;

const test = appTest({
  env: { RETENTION_BATCH_SIZE: String(BATCH_SIZE) },
  offline: true,
}).extend("seeder", { scope: "file" }, ({ app }) => createSeeder(app));

/** Makes a conversation look idle for `days` days: its last activity moved back. */
async function idleFor(app: TestApp, organizationId: string, conversationId: string, days: number) {
  await app.database.db.execute(
    sql`update conversations set updated_at = now() - make_interval(days => ${days})
        where organization_id = ${organizationId} and external_id = ${conversationId}`,
  );
}

async function conversationIdsOf(app: TestApp, organization: TestOrganization): Promise<string[]> {
  const rows = await app.database.db
    .select({ id: conversations.externalId })
    .from(conversations)
    .where(eq(conversations.organizationId, organization.id));
  return rows.map((row) => row.id).sort();
}

async function setRetention(app: TestApp, organization: TestOrganization, days: number | null) {
  const response = await app.admin.admin.updateOrganization(organization.id, {
    conversationRetentionDays: days,
  });
  expect(response.status).toBe(200);
  return response;
}

async function runSweep(app: TestApp) {
  const response = await app.admin.admin.runRetention();
  expect(response.status).toBe(200);
  return response.body as { organizations: number; conversationsDeleted: number };
}

/** `count` exchanges with one agent of the organization, through the query endpoint. */
async function exchanges(
  seeder: ReturnType<typeof createSeeder>,
  organization: TestOrganization,
  count: number,
) {
  const agentId = await seeder.agent(organization);
  const seeded: SeededExchange[] = [];
  for (let index = 0; index < count; index += 1) {
    seeded.push(await seeder.exchange(organization, agentId));
  }
  return seeded;
}

describe("PATCH /api/admin/organizations/{id}", () => {
  test("sets and clears conversationRetentionDays, shown where the organization is returned", async ({
    app,
  }) => {
    const organization = await app.createOrganization("Settings");
    const set = await setRetention(app, organization, 30);
    expect(set.body).toEqual({
      organization: { id: organization.id, name: "Settings", conversationRetentionDays: 30 },
    });
    const billing = await app.admin.admin.updateBilling(organization.id, { plan: "pro" });
    expect(billing.body.organization).toMatchObject({ conversationRetentionDays: 30 });

    const cleared = await setRetention(app, organization, null);
    expect(cleared.body.organization.conversationRetentionDays).toBeNull();
    const [row] = await app.database.db
      .select({ days: organizations.conversationRetentionDays })
      .from(organizations)
      .where(eq(organizations.id, organization.id));
    expect(row).toEqual({ days: null });
  });

  test.for([
    ["zero days", { conversationRetentionDays: 0 }],
    ["negative days", { conversationRetentionDays: -5 }],
    ["more than 36500 days", { conversationRetentionDays: 36_501 }],
    ["a fraction", { conversationRetentionDays: 1.5 }],
    ["a string", { conversationRetentionDays: "30" }],
    ["no field", {}],
    ["an unknown field", { conversationRetentionDays: 30, retentionDays: 30 }],
  ] as const)("answers 400 to %s and changes nothing", async ([_label, body], { app }) => {
    const organization = await app.createOrganization("Bad input");
    await setRetention(app, organization, 10);
    const response = await app.admin.admin.updateOrganization(organization.id, body);
    expect(response.status).toBe(400);
    expect(response.error).toMatchObject({
      type: "INVALID_REQUEST",
      details: expect.any(Array),
      requestId: expect.any(String),
    });
    const billing = await app.admin.admin.updateBilling(organization.id, {});
    expect(billing.body.organization.conversationRetentionDays).toBe(10);
  });

  test("answers 404 for an unknown organization, 401 without the admin token", async ({ app }) => {
    const missing = await app.admin.admin.updateOrganization("no-such-organization", {
      conversationRetentionDays: 30,
    });
    expect(missing.status).toBe(404);
    expect(missing.error.type).toBe("NOT_FOUND");

    const organization = await app.createOrganization("Not the operator");
    const withKey = await app
      .client(organization.auth)
      .admin.updateOrganization(organization.id, { conversationRetentionDays: 1 });
    expect(withKey.status).toBe(401);
    const anonymous = await app.client().admin.runRetention();
    expect(anonymous.status).toBe(401);
    const billing = await app.admin.admin.updateBilling(organization.id, {});
    expect(billing.body.organization.conversationRetentionDays).toBeNull();
  });
});

describe("the retention sweep", () => {
  test("erases exactly the conversations idle longer than the setting, in batches", async ({
    app,
    seeder,
  }) => {
    const limited = await app.createOrganization("Keeps 30 days");
    const unlimited = await app.createOrganization("Keeps everything");
    const seeded = await exchanges(seeder, limited, 7);
    const kept = await exchanges(seeder, unlimited, 2);
    // Five conversations past 30 days (more than two batches), one just within, one fresh.
    const old = seeded.slice(0, 5);
    for (const [index, exchange] of old.entries()) {
      await idleFor(app, limited.id, exchange.conversationId, 31 + index * 100);
    }
    await idleFor(app, limited.id, seeded[5]!.conversationId, 29);
    for (const exchange of kept) await idleFor(app, unlimited.id, exchange.conversationId, 400);
    const annotated = await app.client(limited.auth).annotations.create({
      messageId: old[0]!.agentMessageId,
      sentiment: "good",
      comment: "Helpful",
    });
    expect(annotated.status).toBe(200);
    const eventsBefore = await eventIds(app, limited.id);
    await setRetention(app, limited, 30);

    const result = await runSweep(app);
    expect(result.conversationsDeleted).toBe(old.length);

    const survivors = seeded.slice(5).map((exchange) => exchange.conversationId);
    expect(await conversationIdsOf(app, limited)).toEqual(survivors.sort());
    expect(await conversationIdsOf(app, unlimited)).toEqual(
      kept.map((exchange) => exchange.conversationId).sort(),
    );
    const oldMessages = old.flatMap((exchange) => [
      exchange.humanMessageId,
      exchange.agentMessageId,
    ]);
    expect(
      await app.database.db
        .select({ id: messages.id })
        .from(messages)
        .where(inArray(messages.id, oldMessages)),
    ).toEqual([]);
    expect(
      await app.database.db
        .select({ id: annotations.id })
        .from(annotations)
        .where(eq(annotations.id, annotated.body.id)),
    ).toEqual([]);
    const exported = await app.client(limited.auth).agents.exportConversations(old[0]!.agentId);
    for (const exchange of old) expect(exported.text).not.toContain(exchange.conversationId);
    for (const id of survivors) expect(exported.text).toContain(id);

    // The ledger keeps every event; those of erased conversations lost their personal fields.
    const eventsAfter = await ledgerOf(app.database.db, limited.id);
    expect(eventsAfter.map((event) => event.id)).toEqual(eventsBefore);
    const erased = new Set(old.map((exchange) => exchange.conversationId));
    expect(eventsAfter.filter((event) => erased.has(event.conversation_id ?? ""))).toEqual([]);
    const anonymised = eventsAfter.filter((event) => event.conversation_id === null);
    expect(anonymised.length).toBeGreaterThanOrEqual(old.length);
    for (const event of anonymised) {
      expect(event.message_id).toBeNull();
      expect(Object.keys(event.metadata).every((key) => KEPT_EVENT_METADATA.includes(key))).toBe(
        true,
      );
    }

    // Idempotent: a second run finds nothing more.
    expect((await runSweep(app)).conversationsDeleted).toBe(0);
    expect(await conversationIdsOf(app, limited)).toEqual(survivors.sort());
  });

  test("keeps everything of an organization whose setting is unset", async ({ app, seeder }) => {
    const organization = await app.createOrganization("Changed its mind");
    const seeded = await exchanges(seeder, organization, 2);
    for (const exchange of seeded) {
      await idleFor(app, organization.id, exchange.conversationId, 3_000);
    }
    await setRetention(app, organization, 1);
    await setRetention(app, organization, null);
    await runSweep(app);
    expect(await conversationIdsOf(app, organization)).toEqual(
      seeded.map((exchange) => exchange.conversationId).sort(),
    );
  });

  test("two sweeps at once erase each conversation once", async ({ app, seeder }) => {
    const organization = await app.createOrganization("Swept twice");
    const seeded = await exchanges(seeder, organization, 6);
    for (const exchange of seeded) await idleFor(app, organization.id, exchange.conversationId, 10);
    await setRetention(app, organization, 7);
    const [first, second] = await Promise.all([runSweep(app), runSweep(app)]);
    expect(first!.conversationsDeleted + second!.conversationsDeleted).toBe(seeded.length);
    expect(await conversationIdsOf(app, organization)).toEqual([]);
  });

  test(
    "runs as the retention.sweep job, scheduled daily in UTC",
    async ({ app, seeder }) => {
      const organization = await app.createOrganization("Swept by the worker");
      const [exchange] = await exchanges(seeder, organization, 1);
      await idleFor(app, organization.id, exchange!.conversationId, 3);
      await setRetention(app, organization, 2);
      await app.runtime.jobs.send("retention.sweep", {});
      // Polls the table until the worker erased it: the hook timeout bounds the wait.
      while ((await conversationIdsOf(app, organization)).length > 0) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const schedules = rowsOf<{ name: string; cron: string; timezone: string }>(
        await app.database.db.execute(
          sql`select name, cron, timezone from pgboss.schedule where name = 'retention.sweep'`,
        ),
      );
      expect(schedules).toEqual([{ name: "retention.sweep", cron: "15 3 * * *", timezone: "UTC" }]);
    },
    HOOK_TIMEOUT_MS,
  );
});

async function eventIds(app: TestApp, organizationId: string): Promise<string[]> {
  return (await ledgerOf(app.database.db, organizationId)).map((event) => event.id);
}
