import { gzipSync } from "node:zlib";
import { describe, expect } from "vitest";
import { createAgent } from "../harness/agents.ts";
import { appTest } from "../harness/fixtures.ts";

const test = appTest({ agent: { name: "Helpdesk <Orders>", visibility: "public" } });

const WIDGET_BUDGET_BYTES = 30 * 1024;

describe("GET /widget.js", () => {
  test("is the minified bundle, within its gzipped budget, cached with an ETag", async ({
    app,
  }) => {
    const response = await app.api.inject({ method: "GET", url: "/widget.js" });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toMatch(/^text\/javascript/);
    expect(response.headers["cache-control"]).toBe("public, max-age=300");
    expect(response.headers["access-control-allow-origin"]).toBe("*");
    expect(response.headers.etag).toMatch(/^"[\w-]+"$/);
    // The built strings are in it, and it is one script (no import of another file).
    expect(response.body).toContain("Open chat");
    expect(response.body).not.toMatch(/\bimport\s*[({"']/);
    expect(response.body).not.toMatch(/https?:\/\/(?!www\.w3\.org\/2000\/svg)/);
    expect(gzipSync(response.rawPayload).length).toBeLessThanOrEqual(WIDGET_BUDGET_BYTES);

    const again = await app.api.inject({
      method: "GET",
      url: "/widget.js",
      headers: { "if-none-match": response.headers.etag as string },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe("");
    expect(again.headers.etag).toBe(response.headers.etag);

    const stale = await app.api.inject({
      method: "GET",
      url: "/widget.js",
      headers: { "if-none-match": '"something-else"' },
    });
    expect(stale.statusCode).toBe(200);
    expect(stale.body).toBe(response.body);
  });

  test("is not served on the site listener", async ({ app }) => {
    const response = await app.site.inject({ method: "GET", url: "/widget.js" });
    expect(response.statusCode).toBe(404);
  });
});

describe("GET /chat/{agentId}", () => {
  test("is a page that loads the widget in full-page mode for a public agent", async ({
    app,
    agent,
  }) => {
    const response = await app.api.inject({ method: "GET", url: `/chat/${agent.id}` });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toMatch(/^text\/html/);
    expect(response.headers["content-security-policy"]).toContain("script-src 'self'");
    expect(response.body).toContain("<title>Helpdesk &lt;Orders&gt;</title>");
    expect(response.body).toContain(
      `<script src="/widget.js" data-agent-id="${agent.id}" data-mode="page" defer></script>`,
    );
  });

  test("is the same 404 page for a private agent and an unknown id", async ({ app, org }) => {
    const hidden = await createAgent(app, org, { name: "Secret", visibility: "private" });
    const privateAgent = await app.api.inject({ method: "GET", url: `/chat/${hidden.id}` });
    const unknown = await app.api.inject({ method: "GET", url: "/chat/no-such-agent" });
    expect(privateAgent.statusCode).toBe(404);
    expect(unknown.statusCode).toBe(404);
    expect(privateAgent.headers["content-type"]).toMatch(/^text\/html/);
    expect(privateAgent.body).toBe(unknown.body);
    expect(privateAgent.body).not.toContain("Secret");
  });
});
