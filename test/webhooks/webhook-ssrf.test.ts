import { describe, expect } from "vitest";
import { webhookTest } from "./webhook-helpers.ts";

const test = webhookTest({ env: { NODE_ENV: "production" } });

describe("a production server refuses webhookUrls that point inside the network", () => {
  test.for([
    ["loopback", (port: string) => `http://127.0.0.1:${port}/hook`],
    ["a private address", () => "http://10.0.0.1/hook"],
    ["the cloud metadata address", () => "http://169.254.169.254/latest/meta-data"],
    ["the cloud metadata host name", () => "http://metadata.google.internal/computeMetadata"],
    ["a host name that resolves to loopback", (port: string) => `http://localhost:${port}/hook`],
    ["an IPv6 loopback", (port: string) => `http://[::1]:${port}/hook`],
  ] as const)(
    "refuses %s with 400, never saying what the address is, and never connects",
    async ([, to], { api, agent, receiver }) => {
      const url = () => to(new URL(receiver.url).port);
      const response = await api.agents.query(agent.id, { query: "Hello", webhookUrl: url() });
      expect(response.status).toBe(400);
      const body = response.error;
      expect(body).toMatchObject({
        type: "INVALID_REQUEST",
        error: `webhookUrl is not allowed: ${new URL(url()).origin} refused: the address is not public`,
        details: [{ path: "body.webhookUrl", message: "is not a public address" }],
      });
      expect(JSON.stringify(body)).not.toMatch(/loopback|private|reserved|metadata address/);
      expect(receiver.requests).toHaveLength(0);
    },
  );

  test("stores nothing for a refused URL", async ({ app, api, org, agent }) => {
    const response = await api.agents.query(agent.id, {
      query: "Hello",
      conversationId: "refused-conversation",
      webhookUrl: "http://10.0.0.1/hook",
    });
    expect(response.status).toBe(400);
    const stored = await app.api.inject({
      url: "/api/conversations/refused-conversation",
      headers: org.auth,
    });
    expect(stored.statusCode).toBe(404);
  });
});
