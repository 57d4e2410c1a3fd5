import { eq, inArray, sql } from "drizzle-orm";
import { describe, expect } from "vitest";
import { contacts, messages } from "../../src/db/schema/index.ts";
import { KEPT_EVENT_METADATA } from "../../src/domain/retention/retention-repo.ts";
import { createSeeder } from "../annotations/seed.ts";
import type { TestApp } from "../harness/app.ts";
import { appTest } from "../harness/fixtures.ts";
import { ledgerOf } from "./ledger.ts";

/**
 * DELETE /api/conversations/{id} and DELETE /api/contacts/{id}: what a caller erases is gone from
 * every read (conversation, annotations, export, the tables behind them), its consumption events
 * stay without the personal fields, and nothing of another organization can be reached.
 */

const test = appTest({
  // Two conversations a batch: a contact with three conversations takes several.
  env: { RETENTION_BATCH_SIZE: "2" },
  offline: true,
  funded: false,
  orgName: "Erasing",
})
  .extend("other", { scope: "file" }, ({ app }) => app.createOrganization("Bystander"))
  .extend("seeder", { scope: "file" }, ({ app }) => createSeeder(app))
  .extend("agentId", { scope: "file" }, ({ seeder, org }) => seeder.agent(org))
  .extend("otherAgentId", { scope: "file" }, ({ seeder, other }) => seeder.agent(other));

async function messageCount(app: TestApp, messageIds: string[]): Promise<number> {
  const rows = await app.database.db
    .select({ id: messages.id })
    .from(messages)
    .where(inArray(messages.id, messageIds));
  return rows.length;
}

describe("DELETE /api/conversations/{id}", () => {
  test("erases the conversation, its messages and annotations; keeps its events without it", async ({
    app,
    org,
    seeder,
    agentId,
  }) => {
    const client = app.client(org.auth);
    const kept = await seeder.exchange(org, agentId);
    const erased = await seeder.exchange(org, agentId, {
      contact: { email: "erase.me@example.com" },
    });
    await seeder.exchange(org, agentId, { conversationId: erased.conversationId });
    const annotation = await client.annotations.create({
      messageId: erased.agentMessageId,
      sentiment: "bad",
      comment: "The customer was upset",
    });
    expect(annotation.status).toBe(200);
    // Metadata a client could have put there, as if written with the event.
    await app.database.db.execute(
      sql`update consumption_events set metadata = metadata || '{"customerEmail": "erase.me@example.com"}'
          where organization_id = ${org.id} and conversation_id = ${erased.conversationId}`,
    );
    const before = await ledgerOf(app.database.db, org.id);
    const aboutErased = before.filter((event) => event.conversation_id === erased.conversationId);
    expect(aboutErased.length).toBeGreaterThanOrEqual(2);
    const exportBefore = await client.agents.exportConversations(agentId);
    expect(exportBefore.text).toContain(erased.conversationId);

    const response = await client.conversations.delete(erased.conversationId);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true });

    expect((await client.conversations.get(erased.conversationId)).status).toBe(404);
    expect((await client.annotations.get(annotation.body.id)).status).toBe(404);
    expect(await messageCount(app, [erased.humanMessageId, erased.agentMessageId])).toBe(0);
    const exported = await client.agents.exportConversations(agentId);
    expect(exported.status).toBe(200);
    expect(exported.text).not.toContain(erased.conversationId);
    expect(exported.text).toContain(kept.conversationId);
    const listed = await client.conversations.list();
    expect(listed.body.data.map((row: { id: string }) => row.id)).not.toContain(
      erased.conversationId,
    );

    // Every event is still there; those of the erased conversation lost the personal fields.
    const after = await ledgerOf(app.database.db, org.id);
    expect(after.map((event) => event.id)).toEqual(before.map((event) => event.id));
    for (const event of after.filter((row) => aboutErased.some((gone) => gone.id === row.id))) {
      expect(event.conversation_id).toBeNull();
      expect(event.message_id).toBeNull();
      expect(Object.keys(event.metadata).every((key) => KEPT_EVENT_METADATA.includes(key))).toBe(
        true,
      );
      expect(JSON.stringify(event.metadata)).not.toContain("erase.me");
    }
    const filtered = await client.consumptionEvents.list({
      conversationId: erased.conversationId,
    });
    expect(filtered.body.data).toEqual([]);
    const untouched = after.filter((event) => event.conversation_id === kept.conversationId);
    expect(untouched.length).toBeGreaterThan(0);

    // The contact is another record: erased only by DELETE /api/contacts/{id}.
    const [contact] = await app.database.db
      .select()
      .from(contacts)
      .where(eq(contacts.id, erased.contactId!));
    expect(contact?.email).toBe("erase.me@example.com");
    expect((await client.conversations.get(kept.conversationId)).status).toBe(200);
  });

  test("answers 404 the second time, and for an id never used", async ({
    app,
    org,
    seeder,
    agentId,
  }) => {
    const client = app.client(org.auth);
    const exchange = await seeder.exchange(org, agentId);
    expect((await client.conversations.delete(exchange.conversationId)).status).toBe(200);
    const again = await client.conversations.delete(exchange.conversationId);
    expect(again.status).toBe(404);
    expect(again.error.type).toBe("CONVERSATION_NOT_FOUND");
    const unknown = await client.conversations.delete("never-used");
    expect(unknown.status).toBe(404);
  });

  test("answers 404 for another organization's conversation and leaves it whole", async ({
    app,
    org,
    other,
    seeder,
    otherAgentId,
  }) => {
    const theirs = await seeder.exchange(other, otherAgentId);
    const attempt = await app.client(org.auth).conversations.delete(theirs.conversationId);
    expect(attempt.status).toBe(404);
    expect(attempt.error.type).toBe("CONVERSATION_NOT_FOUND");
    const withTheirAgent = await app
      .client(org.auth)
      .conversations.delete(theirs.conversationId, { agentId: otherAgentId });
    expect(withTheirAgent.status).toBe(404);
    const still = await app.client(other.auth).conversations.get(theirs.conversationId);
    expect(still.status).toBe(200);
    expect(still.body.messages).toHaveLength(2);
  });

  test("refuses callers without a valid key with 401", async ({ app, org, seeder, agentId }) => {
    const exchange = await seeder.exchange(org, agentId);
    const anonymous = await app.client().conversations.delete(exchange.conversationId);
    expect(anonymous.status).toBe(401);
    expect(anonymous.error.type).toBe("UNAUTHORIZED");
    const badKey = await app
      .client({ authorization: "Bearer adk_not-a-key" })
      .conversations.delete(exchange.conversationId);
    expect(badKey.status).toBe(401);
    expect((await app.client(org.auth).conversations.get(exchange.conversationId)).status).toBe(
      200,
    );
  });

  test("asks which agent when two agents use the id, then erases only that one's", async ({
    app,
    org,
    seeder,
    agentId,
  }) => {
    const client = app.client(org.auth);
    const secondAgentId = await seeder.agent(org, { name: "Second agent" });
    const first = await seeder.exchange(org, agentId, { conversationId: "shared-id" });
    const second = await client.agents.query(secondAgentId, {
      query: "Same id, another agent",
      conversationId: "shared-id",
    });
    expect(second.status).toBe(200);

    const ambiguous = await client.conversations.delete("shared-id");
    expect(ambiguous.status).toBe(400);
    expect(ambiguous.error.type).toBe("INVALID_REQUEST");
    expect(await messageCount(app, [first.agentMessageId])).toBe(1);

    const response = await client.conversations.delete("shared-id", { agentId: secondAgentId });
    expect(response.status).toBe(200);
    expect((await client.conversations.get("shared-id", { agentId: secondAgentId })).status).toBe(
      404,
    );
    const remaining = await client.conversations.get("shared-id");
    expect(remaining.status).toBe(200);
    expect(remaining.body.agentId).toBe(agentId);
  });

  test.for([
    ["an empty agentId", "some-id", { agentId: "" }],
    ["an agentId over 200 characters", "some-id", { agentId: "a".repeat(201) }],
  ] as const)("answers 400 to %s", async ([_label, id, query], { app, org }) => {
    const response = await app.client(org.auth).conversations.delete(id, query);
    expect(response.status).toBe(400);
    expect(response.error).toMatchObject({ type: "INVALID_REQUEST", details: expect.any(Array) });
  });
});

describe("DELETE /api/contacts/{id}", () => {
  test("erases the contact and every conversation linked to it, in several batches", async ({
    app,
    org,
    seeder,
    agentId,
  }) => {
    const client = app.client(org.auth);
    const email = "gdpr.request@example.com";
    const linked = [
      await seeder.exchange(org, agentId, { contact: { email } }),
      await seeder.exchange(org, agentId, { contact: { email } }),
      await seeder.exchange(org, agentId, { contact: { email } }),
    ];
    const contactId = linked[0]!.contactId!;
    expect(linked.map((exchange) => exchange.contactId)).toEqual([contactId, contactId, contactId]);
    const bystander = await seeder.exchange(org, agentId, {
      contact: { email: "stays@example.com" },
    });
    const eventsBefore = await ledgerOf(app.database.db, org.id);

    const response = await client.contacts.delete(contactId);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true });

    for (const exchange of linked) {
      expect((await client.conversations.get(exchange.conversationId)).status).toBe(404);
    }
    expect(
      await messageCount(
        app,
        linked.flatMap((row) => [row.humanMessageId, row.agentMessageId]),
      ),
    ).toBe(0);
    const stored = await app.database.db.select().from(contacts).where(eq(contacts.id, contactId));
    expect(stored).toEqual([]);
    const exported = await client.agents.exportConversations(agentId);
    for (const exchange of linked) expect(exported.text).not.toContain(exchange.conversationId);

    const kept = await client.conversations.get(bystander.conversationId);
    expect(kept.status).toBe(200);
    expect(kept.body.contact.email).toBe("stays@example.com");
    const eventsAfter = await ledgerOf(app.database.db, org.id);
    expect(eventsAfter.map((event) => event.id)).toEqual(eventsBefore.map((event) => event.id));
    const erasedIds = new Set(linked.map((exchange) => exchange.conversationId));
    expect(eventsAfter.filter((event) => erasedIds.has(event.conversation_id ?? ""))).toEqual([]);

    const again = await client.contacts.delete(contactId);
    expect(again.status).toBe(404);
    expect(again.error.type).toBe("NOT_FOUND");
  });

  test("answers 404 for an unknown contact and for another organization's", async ({
    app,
    org,
    other,
    seeder,
    otherAgentId,
  }) => {
    const theirs = await seeder.exchange(other, otherAgentId, {
      contact: { email: "their.customer@example.com" },
    });
    const attempt = await app.client(org.auth).contacts.delete(theirs.contactId!);
    expect(attempt.status).toBe(404);
    expect(attempt.error.type).toBe("NOT_FOUND");
    expect((await app.client(org.auth).contacts.delete("no-such-contact")).status).toBe(404);
    const still = await app.client(other.auth).conversations.get(theirs.conversationId);
    expect(still.status).toBe(200);
    expect(still.body.contact.id).toBe(theirs.contactId);
  });

  test("refuses callers without a valid key with 401, and ids over 64 characters with 400", async ({
    app,
    org,
    seeder,
    agentId,
  }) => {
    const exchange = await seeder.exchange(org, agentId, {
      contact: { email: "kept.safe@example.com" },
    });
    expect((await app.client().contacts.delete(exchange.contactId!)).status).toBe(401);
    const badKey = app.client({ authorization: "Bearer adk_wrong" });
    expect((await badKey.contacts.delete(exchange.contactId!)).status).toBe(401);
    const tooLong = await app.client(org.auth).contacts.delete("c".repeat(65));
    expect(tooLong.status).toBe(400);
    expect(tooLong.error.type).toBe("INVALID_REQUEST");
    expect((await app.client(org.auth).conversations.get(exchange.conversationId)).status).toBe(
      200,
    );
  });
});
