import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { TestOrganization } from "../harness/app.ts";
import {
  createConversationalAgent,
  startWebhookTestApp,
  type WebhookTestApp,
} from "./webhook-helpers.ts";

let t: WebhookTestApp;
let org: TestOrganization;
let agentId: string;
beforeAll(async () => {
  t = await startWebhookTestApp({ NODE_ENV: "production" });
  ({ org, agentId } = await createConversationalAgent(t.app));
});
afterAll(() => t.close());

const port = () => new URL(t.receiver.url).port;

describe("a production server refuses webhookUrls that point inside the network", () => {
  test.each([
    ["loopback", () => `http://127.0.0.1:${port()}/hook`],
    ["a private address", () => "http://10.0.0.1/hook"],
    ["the cloud metadata address", () => "http://169.254.169.254/latest/meta-data"],
    ["the cloud metadata host name", () => "http://metadata.google.internal/computeMetadata"],
    ["a host name that resolves to loopback", () => `http://localhost:${port()}/hook`],
    ["an IPv6 loopback", () => `http://[::1]:${port()}/hook`],
  ])(
    "refuses %s with 400, never saying what the address is, and never connects",
    async (_, url) => {
      const response = await t.app
        .client(org.auth)
        .agents.query(agentId, { query: "Hello", webhookUrl: url() });
      expect(response.status).toBe(400);
      const body = response.error;
      expect(body).toMatchObject({
        type: "INVALID_REQUEST",
        error: `webhookUrl is not allowed: ${new URL(url()).origin} refused: the address is not public`,
        details: [{ path: "body.webhookUrl", message: "is not a public address" }],
      });
      expect(JSON.stringify(body)).not.toMatch(/loopback|private|reserved|metadata address/);
      expect(t.receiver.requests).toHaveLength(0);
    },
  );

  test("stores nothing for a refused URL", async () => {
    const response = await t.app.client(org.auth).agents.query(agentId, {
      query: "Hello",
      conversationId: "refused-conversation",
      webhookUrl: "http://10.0.0.1/hook",
    });
    expect(response.status).toBe(400);
    const stored = await t.app.api.inject({
      url: "/api/conversations/refused-conversation",
      headers: org.auth,
    });
    expect(stored.statusCode).toBe(404);
  });
});
