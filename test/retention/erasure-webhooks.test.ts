import { sql } from "drizzle-orm";
import { describe, expect } from "vitest";
import { rowsOf } from "../../src/db/client.ts";
import type { TestApp } from "../harness/app.ts";
import {
  deliveriesOf,
  eventually,
  type WebhookFixtures,
  waitForPosts,
  webhookTest,
} from "../webhooks/webhook-helpers.ts";

/**
 * A conversation of conversational mode leaves more behind than messages: its batching window,
 * the webhook delivery with the answer in its payload, and every attempt with what the receiver
 * said. Erasing the conversation removes all of them; the charge for the answer stays in the
 * ledger, without the window it named.
 */

const test = webhookTest({ orgName: "Conversational" });

async function countRows(
  { app, org }: Pick<WebhookFixtures, "app" | "org">,
  table: "webhook_windows" | "webhook_deliveries",
  conversationId: string,
) {
  const rows = rowsOf<{ count: number }>(
    await app.database.db.execute(
      sql`select count(*)::int as count from ${sql.identifier(table)} w
          join conversations c on c.id = w.conversation_id
          where c.organization_id = ${org.id} and c.external_id = ${conversationId}`,
    ),
  );
  return rows[0]?.count ?? 0;
}

async function rowsWithText(app: TestApp, text: string) {
  const rows = rowsOf<{ count: number }>(
    await app.database.db.execute(
      sql`select (select count(*) from webhook_deliveries where payload like ${`%${text}%`})
            + (select count(*) from webhook_delivery_attempts where response_snippet like ${`%${text}%`})
            + (select count(*) from messages where text like ${`%${text}%`}) as count`,
    ),
  );
  return Number(rows[0]?.count ?? 0);
}

describe("erasing a conversation of conversational mode", () => {
  test("removes its window, deliveries and attempts; keeps the charge without the window", async ({
    app,
    api,
    org,
    agent,
    fake,
    receiver,
  }) => {
    fake.script({ text: "Parcel 7781 leaves the depot today." });
    const queued = await api.agents.query(agent.id, {
      query: "Where is parcel 7781?",
      webhookUrl: `${receiver.url}/hook`,
    });
    expect(queued.status).toBe(200);
    const { conversationId } = queued.body;
    await waitForPosts(receiver, 1);
    const [delivery] = await eventually(async () => {
      const deliveries = await deliveriesOf(app, org, conversationId);
      expect(deliveries[0]?.state).toBe("delivered");
      return deliveries;
    });
    expect(delivery?.attempts).toHaveLength(1);
    expect(await countRows({ app, org }, "webhook_windows", conversationId)).toBe(1);
    expect(await countRows({ app, org }, "webhook_deliveries", conversationId)).toBe(1);
    expect(await rowsWithText(app, "7781")).toBeGreaterThanOrEqual(3);
    const [charge] = rowsOf<{ id: string; metadata: Record<string, unknown> }>(
      await app.database.db.execute(
        sql`select id, metadata from consumption_events
            where organization_id = ${org.id} and conversation_id = ${conversationId}`,
      ),
    );
    expect(charge?.metadata).toHaveProperty("conversational");

    const response = await api.conversations.delete(conversationId);
    expect(response.status).toBe(200);

    expect(await rowsWithText(app, "7781")).toBe(0);
    const attempts = rowsOf<{ count: number }>(
      await app.database.db.execute(
        sql`select count(*)::int as count from webhook_delivery_attempts
            where delivery_id = ${delivery?.id as string}`,
      ),
    );
    expect(attempts[0]?.count).toBe(0);
    const windows = rowsOf<{ count: number }>(
      await app.database.db.execute(
        sql`select count(*)::int as count from webhook_windows where organization_id = ${org.id}`,
      ),
    );
    expect(windows[0]?.count).toBe(0);
    const deliveries = await app.api.inject({
      url: `/api/conversations/${conversationId}/webhook-deliveries`,
      headers: org.auth,
    });
    expect(deliveries.statusCode).toBe(404);

    const [kept] = rowsOf<{
      conversation_id: string | null;
      message_id: string | null;
      metadata: Record<string, unknown>;
      credits_charged_micro: string | number;
    }>(
      await app.database.db.execute(
        sql`select conversation_id, message_id, metadata, credits_charged_micro
            from consumption_events where id = ${charge?.id as string}`,
      ),
    );
    expect(kept).toMatchObject({ conversation_id: null, message_id: null });
    expect(kept?.metadata).not.toHaveProperty("conversational");
    expect(kept?.metadata).toHaveProperty("modelName");
    expect(Number(kept?.credits_charged_micro)).toBeGreaterThan(0);
  });
});
