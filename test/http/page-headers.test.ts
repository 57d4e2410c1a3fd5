import { describe, expect } from "vitest";
import { appTest } from "../harness/fixtures.ts";

const test = appTest({ agent: { name: "Helpdesk", visibility: "public" } });

/** The directives of a Content-Security-Policy header, by name. */
function directives(header: string | null): Map<string, string[]> {
  expect(header, "a Content-Security-Policy header").toEqual(expect.any(String));
  return new Map(
    header!
      .split(";")
      .map((directive) => directive.trim().split(/\s+/))
      .filter(([name]) => name)
      .map(([name, ...sources]) => [name!, sources]),
  );
}

/** What the page loads by itself: stylesheets, icons and scripts, as the page names them. */
function assetsOf(html: string): { kind: "style" | "icon" | "script"; href: string }[] {
  const links = [...html.matchAll(/<link\b[^>]*>/g)].map(([tag]) => ({
    kind: /rel="stylesheet"/.test(tag) ? ("style" as const) : ("icon" as const),
    href: /href="([^"]+)"/.exec(tag)![1]!,
  }));
  const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map(([tag]) => ({
    kind: "script" as const,
    href: /src="([^"]+)"/.exec(tag)?.[1] ?? "",
  }));
  return [...links, ...scripts];
}

const MEDIA = {
  style: /^text\/css/,
  script: /^(application|text)\/javascript/,
  icon: /^image\/png/,
};

describe("the docs page (/api/docs) and everything it loads", () => {
  for (const listener of ["api", "site"] as const) {
    for (const page of ["/api/docs", "/api/docs/"]) {
      test(`${listener} ${page}: nosniff and a CSP that lets the page load`, async ({ app }) => {
        const base = await app.listen(listener);
        const response = await fetch(`${base}${page}`);
        expect(response.status).toBe(200);
        expect(response.headers.get("content-type")).toMatch(/^text\/html/);
        expect(response.headers.get("x-content-type-options")).toBe("nosniff");
        const policy = directives(response.headers.get("content-security-policy"));
        expect(policy.get("default-src")).toEqual(["'none'"]);
        // Scripts only from the page's origin, none inline, no eval.
        expect(policy.get("script-src")).toEqual(["'self'"]);
        expect(policy.get("style-src")).toEqual(["'self'", "'unsafe-inline'"]);
        expect(policy.get("img-src")).toEqual(["'self'", "data:"]);
        expect(policy.get("connect-src")).toEqual(["'self'"]);
        expect(policy.get("frame-ancestors")).toEqual(["'none'"]);

        const html = await response.text();
        const assets = assetsOf(html);
        expect(assets.map((asset) => asset.kind).sort()).toEqual([
          "icon",
          "icon",
          "script",
          "script",
          "script",
          "style",
          "style",
        ]);
        // Inline script would be refused by script-src 'self': every script is a file.
        expect(assets.every((asset) => asset.href !== "")).toBe(true);
        expect(html).not.toMatch(/<script\b(?![^>]*\bsrc=)/);
        for (const asset of assets) {
          const url = new URL(asset.href, `${base}${page}`);
          expect(url.origin, asset.href).toBe(base);
          const loaded = await fetch(url);
          expect({ href: asset.href, status: loaded.status }).toEqual({
            href: asset.href,
            status: 200,
          });
          // With nosniff a browser runs a script and applies a stylesheet only of its own type.
          expect(loaded.headers.get("content-type")).toMatch(MEDIA[asset.kind]);
          expect(loaded.headers.get("x-content-type-options")).toBe("nosniff");
          expect(loaded.headers.get("content-security-policy")).toBe(
            response.headers.get("content-security-policy"),
          );
          expect((await loaded.arrayBuffer()).byteLength).toBeGreaterThan(0);
        }

        // The initializer asks for ./json and no validator elsewhere (connect-src 'self').
        const initializer = await (
          await fetch(new URL("static/swagger-initializer.js", `${base}/api/docs/`))
        ).text();
        expect(initializer).toContain("resolveUrl('./json')");
        expect(initializer).toMatch(/validatorUrl: null/);
        const document = await fetch(`${base}/api/docs/json`);
        expect(document.status).toBe(200);
        expect(document.headers.get("x-content-type-options")).toBe("nosniff");
        expect(((await document.json()) as { openapi: string }).openapi).toBe("3.1.0");
      });
    }
  }

  test("a missing file under /api/docs is a 404 with the same headers", async ({ app }) => {
    const response = await app.api.inject({ method: "GET", url: "/api/docs/static/nope.js" });
    expect(response.statusCode).toBe(404);
    expect(response.headers["x-content-type-options"]).toBe("nosniff");
    expect(response.headers["content-security-policy"]).toContain("default-src 'none'");
  });

  test("Swagger UI's files are compressed and kept a day; the API is not compressed", async ({
    app,
  }) => {
    const bundle = await app.api.inject({
      method: "GET",
      url: "/api/docs/static/swagger-ui-bundle.js",
      headers: { "accept-encoding": "br, gzip" },
    });
    expect(bundle.statusCode).toBe(200);
    expect(bundle.headers["content-encoding"]).toBe("br");
    expect(bundle.headers["cache-control"]).toBe("public, max-age=86400");
    expect(bundle.headers.etag).toEqual(expect.any(String));
    expect(bundle.rawPayload.length).toBeLessThan(600_000);
    const again = await app.api.inject({
      method: "GET",
      url: "/api/docs/static/swagger-ui-bundle.js",
      headers: { "if-none-match": String(bundle.headers.etag) },
    });
    expect(again.statusCode).toBe(304);

    const document = await app.api.inject({
      method: "GET",
      url: "/api/openapi.json",
      headers: { "accept-encoding": "br, gzip" },
    });
    expect(document.headers["content-encoding"]).toBeUndefined();
  });

  test("other routes keep their own headers", async ({ app }) => {
    const health = await app.api.inject({ method: "GET", url: "/api/health" });
    expect(health.headers["content-security-policy"]).toBeUndefined();
  });
});

describe("the chat page (/chat/{agentId}) and the widget", () => {
  test("the page sends nosniff and its strict CSP, found or not", async ({ app, agent }) => {
    for (const [url, status] of [
      [`/chat/${agent.id}`, 200],
      ["/chat/no-such-agent", 404],
    ] as const) {
      const response = await app.api.inject({ method: "GET", url });
      expect(response.statusCode).toBe(status);
      expect(response.headers["x-content-type-options"]).toBe("nosniff");
      const policy = directives(String(response.headers["content-security-policy"]));
      expect(policy.get("default-src")).toEqual(["'none'"]);
      expect(policy.get("script-src")).toEqual(["'self'"]);
    }
  });

  test("/widget.js, which the page and other sites load, sends nosniff", async ({ app }) => {
    const response = await app.api.inject({ method: "GET", url: "/widget.js" });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toMatch(/^text\/javascript/);
    expect(response.headers["x-content-type-options"]).toBe("nosniff");
  });
});
