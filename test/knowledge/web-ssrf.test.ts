import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp, type TestOrganization } from "../harness/app.ts";
import { type FakeWebSite, htmlPage, startFakeWebSite } from "./fake-web-site.ts";
import { createDatastore } from "./knowledge-helpers.ts";

// With NODE_ENV=production the server refuses to fetch loopback, private, link-local and
// metadata addresses, whatever the notation and after DNS resolution. The local test site below
// is real and reachable, so a refusal proves the policy, not a dead port.

let app: TestApp;
let org: TestOrganization;
let web: FakeWebSite;
let datastoreId: string;

beforeAll(async () => {
  app = await startTestApp({ env: { NODE_ENV: "production" } });
  org = await app.createOrganization("Prod Co");
  web = await startFakeWebSite({ "/page": htmlPage("Internal", "Internal admin secrets.") });
  datastoreId = (await createDatastore(app, org)).id;
});
afterAll(async () => {
  await app.close();
  await web.close();
});

const port = () => new URL(web.base).port;

describe("SSRF in production", () => {
  it.each([
    ["127.0.0.1", (p: string) => `http://127.0.0.1:${p}/page`],
    ["0x7f000001", (p: string) => `http://0x7f000001:${p}/page`],
    ["2130706433", (p: string) => `http://2130706433:${p}/page`],
    ["[::1]", (p: string) => `http://[::1]:${p}/page`],
    ["localhost (resolves to loopback)", (p: string) => `http://localhost:${p}/page`],
    ["cloud metadata", () => "http://169.254.169.254/latest/meta-data/"],
    ["a private network", () => "http://10.1.2.3/"],
  ])("refuses a web_page at %s with 400", async (_, url) => {
    const response = await app.api.inject({
      method: "POST",
      url: "/api/datasources",
      headers: org.auth,
      payload: { datastoreId, type: "web_page", config: { source_url: url(port()) } },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toContain("not allowed");
  });

  it("refuses a web_site whose sitemap is on a private address", async () => {
    const response = await app.api.inject({
      method: "POST",
      url: "/api/datasources",
      headers: org.auth,
      payload: {
        datastoreId,
        type: "web_site",
        config: {
          source_url: "https://example.com/",
          sitemap: `http://127.0.0.1:${port()}/sitemap.xml`,
        },
      },
    });
    expect(response.statusCode).toBe(400);
    expect(web.requests).toEqual([]);
  });

  it("never contacted the local site", () => {
    expect(web.requests).toEqual([]);
  });
});
