import { describe, expect, test } from "vitest";
import { FetchFailedError, UnsafeUrlError } from "../../src/lib/safe-fetch.ts";
import { failure, useFakeSite } from "./safe-fetch-site.ts";

const site = useFakeSite();

describe("safe fetch in development (private networks allowed)", () => {
  test("fetches a local page and reports status, headers, body and final URL", async () => {
    const response = await site
      .fetcher({
        allowPrivateNetworks: true,
        userAgent: "agentdesk-test",
      })
      .fetch(`${site.base}/ok`);
    expect(response.status).toBe(200);
    expect(response.body.toString()).toBe("hello");
    expect(response.contentType).toBe("text/plain; charset=utf-8");
    expect(response.headers["x-answer"]).toBe("a, b");
    expect(response.url).toBe(`${site.base}/ok`);
    expect(response.redirects).toEqual([]);
    expect(site.seen[0]?.headers["user-agent"]).toBe("agentdesk-test");
    expect(site.seen[0]?.headers.accept).toBe("*/*");
  });

  test("returns non-2xx responses instead of throwing", async () => {
    const response = await site
      .fetcher({ allowPrivateNetworks: true })
      .fetch(`${site.base}/not-found`);
    expect(response.status).toBe(404);
    expect(response.body.toString()).toBe("missing");
  });

  test("connects to the addresses the injected resolver returns", async () => {
    const safe = site.fetcher({
      allowPrivateNetworks: true,
      resolve: async (host) => (host === "site.test" ? ["127.0.0.1"] : []),
    });
    const response = await safe.fetch(`http://site.test:${site.port}/ok`, { accept: "text/html" });
    expect(response.body.toString()).toBe("hello");
    expect(site.seen[0]?.host).toBe(`site.test:${site.port}`);
    expect(site.seen[0]?.headers.accept).toBe("text/html");
  });

  test("follows redirects itself and lists the URLs that redirected", async () => {
    const response = await site
      .fetcher({ allowPrivateNetworks: true })
      .fetch(`${site.base}/chain/3`, {
        maxRedirects: 3,
      });
    expect(response.status).toBe(200);
    expect(response.body.toString()).toBe("end of chain");
    expect(response.url).toBe(`${site.base}/chain/0`);
    expect(response.redirects).toEqual([
      `${site.base}/chain/3`,
      `${site.base}/chain/2`,
      `${site.base}/chain/1`,
    ]);
  });

  test("refuses a chain longer than maxRedirects", async () => {
    const error = await failure(
      site
        .fetcher({ allowPrivateNetworks: true })
        .fetch(`${site.base}/chain/3`, { maxRedirects: 2 }),
    );
    expect(error).toBeInstanceOf(UnsafeUrlError);
    expect((error as UnsafeUrlError).reason).toBe("too_many_redirects");
    expect(site.seen.map((request) => request.url)).toEqual(["/chain/3", "/chain/2", "/chain/1"]);
  });

  test("stops a redirect loop", async () => {
    const safe = site.fetcher({ allowPrivateNetworks: true, defaultMaxRedirects: 4 });
    const error = await failure(safe.fetch(`${site.base}/loop`));
    expect((error as UnsafeUrlError).reason).toBe("too_many_redirects");
    expect(error.message).toBe(`${site.base} redirected more than 4 times`);
    expect(site.seen).toHaveLength(5);
  });

  test("turns a POST into a GET without body on 303, as fetch does", async () => {
    const response = await site
      .fetcher({ allowPrivateNetworks: true })
      .fetch(`${site.base}/see-other`, {
        method: "POST",
        headers: { "Content-Type": "text/plain" },
        body: "payload",
      });
    const echoed = JSON.parse(response.body.toString());
    expect(site.seen[0]).toMatchObject({ method: "POST", body: "payload" });
    expect(echoed.method).toBe("GET");
    expect(echoed.body).toBe("");
    expect(echoed.headers["content-type"]).toBeUndefined();
    expect(response.url).toBe(`${site.base}/echo`);
  });

  test("turns a POST into a GET on 302 but keeps method and body on 307", async () => {
    const safe = site.fetcher({ allowPrivateNetworks: true });
    const init = { method: "POST", body: new TextEncoder().encode("data") };
    const found = JSON.parse((await safe.fetch(`${site.base}/found`, init)).body.toString());
    expect(found).toMatchObject({ method: "GET", body: "" });
    const temporary = JSON.parse(
      (await safe.fetch(`${site.base}/temporary`, init)).body.toString(),
    );
    expect(temporary).toMatchObject({ method: "POST", body: "data" });
  });

  test("drops credentials when a redirect leaves the origin", async () => {
    const response = await site
      .fetcher({ allowPrivateNetworks: true })
      .fetch(`${site.base}/to-other-origin`, {
        headers: { Authorization: "Bearer secret", "X-Service-Event": "agent.response" },
      });
    const echoed = JSON.parse(response.body.toString());
    expect(site.seen[0]?.headers.authorization).toBe("Bearer secret");
    expect(echoed.headers.authorization).toBeUndefined();
    expect(echoed.headers["x-service-event"]).toBe("agent.response");
    expect(response.url).toBe(`http://localhost:${site.port}/echo`);
  });

  test("refuses a redirect to a scheme other than http or https", async () => {
    const error = await failure(
      site.fetcher({ allowPrivateNetworks: true }).fetch(`${site.base}/to-ftp`),
    );
    expect(error).toBeInstanceOf(UnsafeUrlError);
    expect((error as UnsafeUrlError).reason).toBe("scheme");
    expect(error.message).toContain("ftp:");
  });

  test("fails with too_large once a streamed body passes maxBytes", async () => {
    const safe = site.fetcher({ allowPrivateNetworks: true });
    const error = await failure(safe.fetch(`${site.base}/stream`, { maxBytes: 2500 }));
    expect(error).toBeInstanceOf(FetchFailedError);
    expect((error as FetchFailedError).reason).toBe("too_large");
    expect(error.message).toBe(`The response from ${site.base} is larger than 2500 bytes`);
    const exact = await safe.fetch(`${site.base}/stream`, { maxBytes: 5000 });
    expect(exact.body.length).toBe(5000);
  });

  test("fails with too_large on a declared Content-Length above maxBytes", async () => {
    const safe = site.fetcher({ allowPrivateNetworks: true, defaultMaxBytes: 1000 });
    const error = await failure(safe.fetch(`${site.base}/declared-large`));
    expect((error as FetchFailedError).reason).toBe("too_large");
  });

  test("fails with timeout when the server never answers", async () => {
    const safe = site.fetcher({ allowPrivateNetworks: true });
    const error = await failure(safe.fetch(`${site.base}/never`, { timeoutMs: 200 }));
    expect(error).toBeInstanceOf(FetchFailedError);
    expect((error as FetchFailedError).reason).toBe("timeout");
    expect(error.message).toBe(`${site.base} did not answer within 200 ms`);
  });

  test("reports a caller's abort as aborted, not as a timeout", async () => {
    const controller = new AbortController();
    const pending = site.fetcher({ allowPrivateNetworks: true }).fetch(`${site.base}/never`, {
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 20);
    const error = await failure(pending);
    expect((error as FetchFailedError).reason).toBe("aborted");
  });

  test("refuses ftp: and file: URLs, credentials and malformed URLs", async () => {
    const safe = site.fetcher({ allowPrivateNetworks: true });
    const reasons = await Promise.all(
      ["ftp://example.com/a", "file:///etc/passwd", "http://user:pw@example.com/", "not a url"].map(
        async (url) => ((await failure(safe.fetch(url))) as UnsafeUrlError).reason,
      ),
    );
    expect(reasons).toEqual(["scheme", "scheme", "credentials", "invalid_url"]);
  });
});

describe("allowed hosts in production (FETCH_ALLOWED_HOSTS)", () => {
  // Both names resolve to the local test site, as an intranet host would to a private address.
  const resolve = async (host: string) =>
    host === "wiki.test" || host === "other.test" ? ["127.0.0.1"] : [];
  const production = (allowedHosts: string[]) =>
    site.fetcher({ allowPrivateNetworks: false, allowedHosts, resolve });

  test("fetches a listed host that resolves to loopback, matching its name case-insensitively", async () => {
    const safe = production(["Wiki.Test"]);
    await expect(safe.check(`http://WIKI.test:${site.port}/ok`)).resolves.toBeUndefined();
    const response = await safe.fetch(`http://WIKI.test:${site.port}/ok`);
    expect(response.status).toBe(200);
    expect(response.body.toString()).toBe("hello");
    expect(site.seen.map((request) => request.host)).toEqual([`wiki.test:${site.port}`]);
  });

  test("fetches a listed IP literal but not a name that resolves to it", async () => {
    const safe = site.fetcher({ allowPrivateNetworks: false, allowedHosts: ["127.0.0.1"] });
    const response = await safe.fetch(`${site.base}/ok`);
    expect(response.body.toString()).toBe("hello");
    const error = await failure(safe.fetch(`http://localhost:${site.port}/ok`));
    expect((error as UnsafeUrlError).reason).toBe("blocked_address");
    expect(site.seen.map((request) => request.url)).toEqual(["/ok"]);
  });

  test("refuses a redirect from a listed host to 127.0.0.1", async () => {
    const target = `http://127.0.0.1:${site.port}/echo`;
    const error = await failure(
      production(["wiki.test"]).fetch(
        `http://wiki.test:${site.port}/redirect?to=${encodeURIComponent(target)}`,
      ),
    );
    expect(error).toBeInstanceOf(UnsafeUrlError);
    expect((error as UnsafeUrlError).reason).toBe("blocked_address");
    expect(error.message).toBe(`http://127.0.0.1:${site.port} refused: the address is not public`);
    expect(site.seen.map((request) => request.url)).toEqual([
      `/redirect?to=${encodeURIComponent(target)}`,
    ]);
  });

  test("refuses a redirect from a listed host to an unlisted name that resolves to loopback", async () => {
    const target = `http://other.test:${site.port}/echo`;
    const error = await failure(
      production(["wiki.test"]).fetch(
        `http://wiki.test:${site.port}/redirect?to=${encodeURIComponent(target)}`,
      ),
    );
    expect((error as UnsafeUrlError).reason).toBe("blocked_address");
    expect(error.message).toBe("other.test refused: the address is not public");
    expect(site.seen).toHaveLength(1);
  });

  test("refuses an entry that is not a host name", () => {
    for (const entry of ["http://wiki.test", "wiki.test:8080", "wiki.test/path", "user@wiki", ""]) {
      expect(() => site.fetcher({ allowPrivateNetworks: false, allowedHosts: [entry] })).toThrow(
        TypeError,
      );
    }
  });
});
