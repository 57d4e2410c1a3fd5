import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { TestOrganization } from "../harness/app.ts";
import {
  createConversationalAgent,
  deliveriesOf,
  eventually,
  posts,
  startWebhookTestApp,
  type WebhookTestApp,
  waitForPosts,
} from "./webhook-helpers.ts";

// What a worker that died leaves behind, rebuilt in the database (test/recovery/ kills real
// processes): a delivery in `sending`, its attempt never recorded, its lease still running.
const LEASE_LEFT_MS = 1_500;

let t: WebhookTestApp;
let org: TestOrganization;
let agentId: string;
beforeAll(async () => {
  t = await startWebhookTestApp({ JOB_LEASE_SECONDS: "2" });
  ({ org, agentId } = await createConversationalAgent(t.app));
});
afterAll(() => t.close());

async function deliveredOnce(query: string) {
  t.fake.script({ text: "An answer that was in flight." });
  const queued = await t.app
    .client(org.auth)
    .agents.query(agentId, { query, webhookUrl: `${t.receiver.url}/h` });
  expect(queued.status).toBe(200);
  const { conversationId } = queued.body;
  const [delivery] = await eventually(async () => {
    const found = await deliveriesOf(t.app, org, conversationId);
    expect(found[0]?.state).toBe("delivered");
    return found;
  });
  return { conversationId, deliveryId: delivery!.id as string };
}

async function leaveInFlight(deliveryId: string) {
  await t.app.database.db.execute(
    sql`delete from webhook_delivery_attempts where delivery_id = ${deliveryId}`,
  );
  await t.app.database.db.execute(
    sql`update webhook_deliveries
        set state = 'sending', attempt_count = 1, delivered_at = null,
            lease_until = now() + ${LEASE_LEFT_MS}::integer * interval '1 millisecond'
        where id = ${deliveryId}`,
  );
}

describe("an attempt left in flight by a worker that died", () => {
  test("is taken over when its lease runs out, with the same delivery id, and delivered once", async () => {
    const { conversationId, deliveryId } = await deliveredOnce("Are you there?");
    await leaveInFlight(deliveryId);
    t.receiver.requests.length = 0;

    // The retried window job finds the attempt in flight: it schedules the takeover and ends.
    const started = Date.now();
    await t.app.runtime.services.webhookDeliveries.attempt(org.id, deliveryId, 1, {
      recover: false,
    });
    expect(posts(t.receiver)).toHaveLength(0);

    const [post] = await waitForPosts(t.receiver, 1, 10_000);
    const waited = Date.now() - started;
    expect(waited).toBeGreaterThanOrEqual(LEASE_LEFT_MS - 100);
    // The takeover job starts at the lease's end; a worker polls every half second.
    expect(waited).toBeLessThan(LEASE_LEFT_MS + 2_000);
    expect(post!.headers["x-service-delivery"]).toBe(deliveryId);
    const [delivery] = await eventually(async () => {
      const found = await deliveriesOf(t.app, org, conversationId);
      expect(found[0]?.state).toBe("delivered");
      return found;
    });
    expect(delivery).toMatchObject({ attemptCount: 1, attempts: [{ outcome: "delivered" }] });
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(posts(t.receiver)).toHaveLength(1);
  });
});
