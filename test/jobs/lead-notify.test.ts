import { sql } from "drizzle-orm";
import { describe, expect } from "vitest";
import { rowsOf } from "../../src/db/client.ts";
import { startReceiver } from "../fakes/http-receiver.ts";
import { startTestApp, type TestApp } from "../harness/app.ts";
import { appTest } from "../harness/fixtures.ts";

const test = appTest({ offline: true })
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from it
  .extend("receiver", { scope: "file" }, async ({}, { onCleanup }) => {
    const receiver = await startReceiver();
    onCleanup(() => receiver.close());
    return receiver;
  });
test.override("env", { scope: "file" }, ({ receiver }) => ({
  LEAD_NOTIFY_URL: `${receiver.url}/hooks/leads`,
}));

describe("lead notification job", () => {
  test("POSTs each new lead to LEAD_NOTIFY_URL from the worker, without the IP hash", async ({
    app,
    receiver,
  }) => {
    const response = await app.site.inject({
      method: "POST",
      url: "/api/leads",
      headers: { "content-type": "application/json" },
      payload: { name: "Notify Me", email: "notify@example.com", company: "Acme" },
    });
    expect(response.statusCode).toBe(201);
    const [delivery] = await receiver.waitFor(1);
    expect(delivery?.method).toBe("POST");
    expect(delivery?.path).toBe("/hooks/leads");
    expect(delivery?.headers["content-type"]).toBe("application/json");
    const body = JSON.parse(delivery!.body);
    expect(body).toMatchObject({
      event: "lead.created",
      lead: { id: response.json().id, name: "Notify Me", email: "notify@example.com" },
    });
    expect(body.lead.ipHash).toBeUndefined();
  });
});

/** The notification job of a lead: its state and how many times it was retried. */
async function notifyJob(target: TestApp, leadId: string) {
  const result = await target.database.db.execute(
    sql`select state::text as state, retry_count as "retryCount" from pgboss.job
        where name = 'lead.notify' and data->>'leadId' = ${leadId}`,
  );
  return rowsOf<{ state: string; retryCount: number }>(result)[0] ?? null;
}

async function settledJob(target: TestApp, leadId: string) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const job = await notifyJob(target, leadId);
    if (job && job.state !== "created" && job.state !== "active") return job;
    if (Date.now() > deadline) throw new Error(`lead.notify still ${job?.state}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const postLead = (target: TestApp, email: string) =>
  target.site.inject({
    method: "POST",
    url: "/api/leads",
    headers: { "content-type": "application/json" },
    payload: { name: "Lead", email },
  });

describe("lead notification failures", () => {
  test("gives up at once on a 4xx answer, which retrying cannot change", async ({
    app,
    receiver,
  }) => {
    receiver.respondWith([404]);
    const response = await postLead(app, "gone@example.com");
    expect(response.statusCode).toBe(201);
    expect(await settledJob(app, response.json().id)).toEqual({
      state: "completed",
      retryCount: 0,
    });
  });

  test("retries a 5xx answer and a 429", async ({ app, receiver }) => {
    receiver.respondWith([503]);
    const unavailable = await postLead(app, "later@example.com");
    expect(await settledJob(app, unavailable.json().id)).toEqual({ state: "retry", retryCount: 0 });
    receiver.respondWith([429]);
    const throttled = await postLead(app, "throttled@example.com");
    expect(await settledJob(app, throttled.json().id)).toEqual({ state: "retry", retryCount: 0 });
    receiver.respondWith([]);
  });
});

describe("lead notification in production mode", () => {
  test("refuses to deliver to a loopback address (SSRF guard) and keeps the lead", async () => {
    const blockedReceiver = await startReceiver();
    const production = await startTestApp({
      env: { NODE_ENV: "production", LEAD_NOTIFY_URL: `${blockedReceiver.url}/x` },
    });
    try {
      const response = await production.site.inject({
        method: "POST",
        url: "/api/leads",
        headers: { "content-type": "application/json" },
        payload: { name: "Blocked", email: "blocked@example.com" },
      });
      expect(response.statusCode).toBe(201);
      // Given up at once: the address policy will refuse every retry the same way.
      expect(await settledJob(production, response.json().id)).toEqual({
        state: "completed",
        retryCount: 0,
      });
      await expect(blockedReceiver.waitFor(1, 1_000)).rejects.toThrow(/expected 1 requests/);
    } finally {
      await production.close();
      await blockedReceiver.close();
    }
  });
});
