import { sql } from "drizzle-orm";
import { describe, expect } from "vitest";
import type { TestApp } from "../harness/app.ts";
import {
  deliveriesOf,
  eventually,
  posts,
  type WebhookFixtures,
  waitForPosts,
  webhookTest,
} from "./webhook-helpers.ts";

// What a worker that died leaves behind, rebuilt in the database (test/recovery/ kills real
// processes): a delivery in `sending`, its attempt never recorded, its lease still running.
const LEASE_LEFT_MS = 1_500;

const test = webhookTest({ env: { JOB_LEASE_SECONDS: "2" } });

async function deliveredOnce(
  { app, api, org, agent, fake, receiver }: WebhookFixtures,
  query: string,
) {
  fake.script({ text: "An answer that was in flight." });
  const queued = await api.agents.query(agent.id, { query, webhookUrl: `${receiver.url}/h` });
  expect(queued.status).toBe(200);
  const { conversationId } = queued.body;
  const [delivery] = await eventually(async () => {
    const found = await deliveriesOf(app, org, conversationId);
    expect(found[0]?.state).toBe("delivered");
    return found;
  });
  return { conversationId, deliveryId: delivery!.id as string };
}

async function leaveInFlight(app: TestApp, deliveryId: string) {
  await app.database.db.execute(
    sql`delete from webhook_delivery_attempts where delivery_id = ${deliveryId}`,
  );
  await app.database.db.execute(
    sql`update webhook_deliveries
        set state = 'sending', attempt_count = 1, delivered_at = null,
            lease_until = now() + ${LEASE_LEFT_MS}::integer * interval '1 millisecond'
        where id = ${deliveryId}`,
  );
}

describe("an attempt left in flight by a worker that died", () => {
  test("is taken over when its lease runs out, with the same delivery id, and delivered once", async ({
    app,
    api,
    org,
    agent,
    fake,
    receiver,
  }) => {
    const { conversationId, deliveryId } = await deliveredOnce(
      { app, api, org, agent, fake, receiver },
      "Are you there?",
    );
    await leaveInFlight(app, deliveryId);
    receiver.requests.length = 0;

    // The retried window job finds the attempt in flight: it schedules the takeover and ends.
    const started = Date.now();
    await app.runtime.services.webhookDeliveries.attempt(org.id, deliveryId, 1, {
      recover: false,
    });
    expect(posts(receiver)).toHaveLength(0);

    const [post] = await waitForPosts(receiver, 1, 10_000);
    const waited = Date.now() - started;
    expect(waited).toBeGreaterThanOrEqual(LEASE_LEFT_MS - 100);
    // The takeover job starts at the lease's end; a worker polls every half second.
    expect(waited).toBeLessThan(LEASE_LEFT_MS + 2_000);
    expect(post!.headers["x-service-delivery"]).toBe(deliveryId);
    const [delivery] = await eventually(async () => {
      const found = await deliveriesOf(app, org, conversationId);
      expect(found[0]?.state).toBe("delivered");
      return found;
    });
    expect(delivery).toMatchObject({ attemptCount: 1, attempts: [{ outcome: "delivered" }] });
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(posts(receiver)).toHaveLength(1);
  });
});
