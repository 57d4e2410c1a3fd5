import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Receiver, startReceiver } from "../fakes/http-receiver.ts";
import { startTestApp, type TestApp } from "../harness/app.ts";

let receiver: Receiver;
let app: TestApp;
beforeAll(async () => {
  receiver = await startReceiver();
  app = await startTestApp({ env: { LEAD_NOTIFY_URL: `${receiver.url}/hooks/leads` } });
});
afterAll(async () => {
  await app.close();
  await receiver.close();
});

describe("lead notification job", () => {
  it("POSTs each new lead to LEAD_NOTIFY_URL from the worker, without the IP hash", async () => {
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

describe("lead notification in production mode", () => {
  it("refuses to deliver to a loopback address (SSRF guard) and keeps the lead", async () => {
    const blockedReceiver = await startReceiver();
    const production = await startTestApp({
      env: { NODE_ENV: "production", LEAD_NOTIFY_URL: `${blockedReceiver.url}/x` },
      database: app.database,
    });
    try {
      const response = await production.site.inject({
        method: "POST",
        url: "/api/leads",
        headers: { "content-type": "application/json" },
        payload: { name: "Blocked", email: "blocked@example.com" },
      });
      expect(response.statusCode).toBe(201);
      await expect(blockedReceiver.waitFor(1, 2_500)).rejects.toThrow(/expected 1 requests/);
    } finally {
      await production.close();
      await blockedReceiver.close();
    }
  });
});
