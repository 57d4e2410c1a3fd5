import { describe, expect } from "vitest";
import { createAgent } from "../harness/agents.ts";
import { appTest } from "../harness/fixtures.ts";
import { publicChat, readPublicAgent, readPublicConversation } from "./public-chat-helpers.ts";

const SHOP = "https://shop.example.com";
const OTHER = "https://evil.example.net";
const test = appTest({ agent: { visibility: "public", allowedOrigins: [SHOP] } });

const VISITOR = "visitor-cors-1";

function preflight(
  app: Parameters<typeof publicChat>[0],
  url: string,
  origin: string,
  method = "POST",
) {
  return app.api.inject({
    method: "OPTIONS",
    url,
    headers: {
      origin,
      "access-control-request-method": method,
      "access-control-request-headers": "content-type",
    },
  });
}

const corsHeaders = (headers: Record<string, unknown>) =>
  Object.keys(headers).filter((name) => name.startsWith("access-control-"));

describe("an agent with allowedOrigins", () => {
  test("answers a listed origin with its CORS headers", async ({ app, agent }) => {
    const profile = await readPublicAgent(app, agent.id, { origin: SHOP });
    expect(profile.statusCode).toBe(200);
    expect(profile.headers["access-control-allow-origin"]).toBe(SHOP);
    expect(String(profile.headers.vary)).toContain("Origin");

    const chat = await publicChat(
      app,
      agent.id,
      { query: "Hello?", visitorId: VISITOR },
      { headers: { origin: SHOP } },
    );
    expect(chat.statusCode).toBe(200);
    expect(chat.headers["access-control-allow-origin"]).toBe(SHOP);
  });

  test("refuses any other origin with 403 and no CORS headers, before the model", async ({
    app,
    fake,
    agent,
  }) => {
    const started = await publicChat(app, agent.id, { query: "Hi", visitorId: VISITOR });
    expect(started.statusCode).toBe(200);
    fake.requests.length = 0;
    const refused = [
      await readPublicAgent(app, agent.id, { origin: OTHER }),
      await publicChat(
        app,
        agent.id,
        { query: "Hello?", visitorId: VISITOR },
        { headers: { origin: OTHER } },
      ),
      await readPublicConversation(app, agent.id, started.json().conversationId, VISITOR, {
        origin: OTHER,
      }),
      await preflight(app, `/api/public/agents/${agent.id}/chat`, OTHER),
    ];
    for (const response of refused) {
      expect(response.statusCode).toBe(403);
      expect(response.json()).toMatchObject({ type: "FORBIDDEN" });
      expect(corsHeaders(response.headers)).toEqual([]);
    }
    expect(fake.requests).toHaveLength(0);
  });

  test("always lets the service's own pages in: its chat page is not a third party", async ({
    app,
    agent,
  }) => {
    // PUBLIC_URL's origin, and the host the request was sent to (behind a proxy that keeps it).
    const own: Record<string, string>[] = [
      { origin: app.config.accounts.publicOrigin },
      { origin: "https://desk.example.org", host: "desk.example.org" },
    ];
    for (const headers of own) {
      const chat = await publicChat(
        app,
        agent.id,
        { query: "Hello from the chat page", visitorId: VISITOR },
        { headers },
      );
      expect(chat.statusCode, chat.body).toBe(200);
      expect(chat.headers["access-control-allow-origin"]).toBe(headers.origin!);
    }
    const lookalike = await publicChat(
      app,
      agent.id,
      { query: "Hello?", visitorId: VISITOR },
      { headers: { origin: "https://desk.example.org.evil.net", host: "desk.example.org" } },
    );
    expect(lookalike.statusCode).toBe(403);
  });

  test("lets a request without an Origin through (not from a browser page)", async ({
    app,
    agent,
  }) => {
    const response = await readPublicAgent(app, agent.id);
    expect(response.statusCode).toBe(200);
    expect(response.headers["access-control-allow-origin"]).toBeUndefined();
  });

  test("answers a listed origin's preflight with 204 and the allowed method and header", async ({
    app,
    agent,
  }) => {
    const response = await preflight(app, `/api/public/agents/${agent.id}/chat`, SHOP);
    expect(response.statusCode).toBe(204);
    expect(response.headers["access-control-allow-origin"]).toBe(SHOP);
    expect(String(response.headers["access-control-allow-methods"])).toContain("POST");
    expect(String(response.headers["access-control-allow-headers"]).toLowerCase()).toContain(
      "content-type",
    );
  });
});

describe("an agent without allowedOrigins", () => {
  test("reflects any origin, preflight included", async ({ app, org }) => {
    const open = await createAgent(app, org, { visibility: "public" });
    const response = await readPublicAgent(app, open.id, { origin: OTHER });
    expect(response.statusCode).toBe(200);
    expect(response.headers["access-control-allow-origin"]).toBe(OTHER);
    expect(String(response.headers.vary)).toContain("Origin");
    const options = await preflight(app, `/api/public/agents/${open.id}/chat`, OTHER);
    expect(options.statusCode).toBe(204);
    expect(options.headers["access-control-allow-origin"]).toBe(OTHER);
  });

  test("a private agent with allowedOrigins answers any origin as an unknown agent", async ({
    app,
    org,
  }) => {
    const secret = await createAgent(app, org, { visibility: "private", allowedOrigins: [SHOP] });
    for (const id of [secret.id, "no-such-agent"]) {
      const response = await readPublicAgent(app, id, { origin: OTHER });
      expect(response.statusCode).toBe(404);
      expect(response.headers["access-control-allow-origin"]).toBe(OTHER);
      const options = await preflight(app, `/api/public/agents/${id}/chat`, OTHER);
      expect(options.statusCode).toBe(204);
    }
  });
});

describe("the dashboard API", () => {
  test("keeps sending no CORS headers", async ({ app, org, agent }) => {
    const response = await app.api.inject({
      method: "GET",
      url: `/api/agents/${agent.id}`,
      headers: { ...org.auth, origin: SHOP },
    });
    expect(response.statusCode).toBe(200);
    expect(corsHeaders(response.headers)).toEqual([]);
    const options = await preflight(app, `/api/agents/${agent.id}`, SHOP, "GET");
    expect(options.headers["access-control-allow-origin"]).toBeUndefined();
  });
});
