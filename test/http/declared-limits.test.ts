import { randomUUID } from "node:crypto";
import Fastify from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { describe, expect } from "vitest";
import type { App } from "../../src/http/app-types.ts";
import { type RouteLimit, registerDeclaredLimits } from "../../src/http/plugins/declared-limits.ts";
import { appTest } from "../harness/fixtures.ts";

const test = appTest({ env: { PUBLIC_CHAT_IP_RATE_LIMIT_PER_MINUTE: "2" } });

type Document = {
  paths: Record<string, Record<string, { responses: Record<string, { description: string }> }>>;
};

/** "post /path" of every operation of a document that documents a 429. */
function documenting429(document: Document): string[] {
  return Object.entries(document.paths).flatMap(([path, operations]) =>
    Object.entries(operations)
      .filter(([, operation]) => operation.responses["429"] !== undefined)
      .map(([method]) => `${method} ${path}`),
  );
}

describe("rate limits declared on the routes", () => {
  test("every limited operation documents its 429, and only those and the logins do", async ({
    app,
  }) => {
    const api = (await app.api.inject({ url: "/api/openapi.json" })).json() as Document;
    expect(documenting429(api).sort()).toEqual(
      [
        "post /api/agents/{id}/query-agent",
        "post /api/annotations",
        "post /api/transcribe-audio",
        "post /api/public/agents/{agentId}/chat",
        "post /api/public/agents/{agentId}/conversations/{conversationId}/messages/{messageId}/annotation",
        "post /api/public/agents/{agentId}/transcribe-audio",
        // Not a request rate: failed logins lock an e-mail or an address out for a while.
        "post /api/auth/login",
        "post /api/auth/invitations/{token}/accept",
      ].sort(),
    );
    const site = (await app.site.inject({ url: "/api/openapi.json" })).json() as Document;
    expect(documenting429(site)).toEqual(["post /api/leads"]);
  });

  test("the public chat and its twins count one address together", async ({ app }) => {
    // Unknown agents: each request is counted once valid, then answered 404.
    const agentId = randomUUID();
    const remoteAddress = "203.0.113.77";
    const chat = await app.api.inject({
      method: "POST",
      url: `/api/public/agents/${agentId}/chat`,
      payload: { query: "Hello?", visitorId: "visitor-twins-1" },
      remoteAddress,
    });
    expect(chat.statusCode).toBe(404);
    const annotation = await app.api.inject({
      method: "POST",
      url: `/api/public/agents/${agentId}/conversations/${randomUUID()}/messages/m1/annotation`,
      payload: { visitorId: "visitor-twins-2", sentiment: "good" },
      remoteAddress,
    });
    expect(annotation.statusCode).toBe(404);
    const voice = await app.api.inject({
      method: "POST",
      url: `/api/public/agents/${agentId}/transcribe-audio`,
      payload: {},
      remoteAddress,
    });
    expect(voice.statusCode).toBe(429);
    expect(voice.json()).toMatchObject({
      type: "RATE_LIMITED",
      error: expect.stringMatching(/^Too many messages from this address; retry in \d+ seconds$/),
    });
    expect(Number(voice.headers["retry-after"])).toBeGreaterThan(0);
  });
});

describe("a server refuses at startup", () => {
  async function serverWith(...routes: Array<Record<string, unknown>>) {
    const app = Fastify().withTypeProvider<ZodTypeProvider>() as unknown as App;
    await registerDeclaredLimits(app, null);
    for (const [index, config] of routes.entries()) {
      app.post(`/route-${index}`, { config }, async () => ({}));
    }
    return app;
  }
  const limit = (): RouteLimit => ({
    name: "thing:ip",
    key: (request) => request.ip,
    max: 1,
    per: "minute",
    refusal: "Too many things",
  });

  test("a route that sets @fastify/rate-limit's config.rateLimit (it would count nothing)", async () => {
    await expect(serverWith({ rateLimit: { max: 1 } })).rejects.toThrow(
      /POST \/route-0 sets config.rateLimit: declare config.limits/,
    );
  });

  test("two different declarations of one counter", async () => {
    const shared = limit();
    const app = await serverWith({ limits: [shared] }, { limits: [shared] });
    await app.close();
    await expect(serverWith({ limits: [limit()] }, { limits: [limit()] })).rejects.toThrow(
      /POST \/route-1 declares a second limit named thing:ip/,
    );
  });
});
