import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type FakeWebSite, htmlPage, startFakeWebSite } from "../fakes/web-site.ts";
import { startTestApp, type TestApp, type TestOrganization } from "../harness/app.ts";
import { createDatastore, query, waitForSync } from "./knowledge-helpers.ts";

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
  test.each([
    ["127.0.0.1", (p: string) => `http://127.0.0.1:${p}/page`],
    ["0x7f000001", (p: string) => `http://0x7f000001:${p}/page`],
    ["2130706433", (p: string) => `http://2130706433:${p}/page`],
    ["[::1]", (p: string) => `http://[::1]:${p}/page`],
    ["localhost (resolves to loopback)", (p: string) => `http://localhost:${p}/page`],
    ["cloud metadata", () => "http://169.254.169.254/latest/meta-data/"],
    ["a private network", () => "http://10.1.2.3/"],
  ])("refuses a web_page at %s with 400", async (_, url) => {
    const response = await app
      .client(org.auth)
      .datasources.create({ datastoreId, type: "web_page", config: { source_url: url(port()) } });
    expect(response.status).toBe(400);
    expect(response.error.error).toBe(
      `config: ${new URL(url(port())).origin} refused: the address is not public`,
    );
  });

  test("refuses a web_site whose sitemap is on a private address", async () => {
    const response = await app.client(org.auth).datasources.create({
      datastoreId,
      type: "web_site",
      config: {
        source_url: "https://example.com/",
        sitemap: `http://127.0.0.1:${port()}/sitemap.xml`,
      },
    });
    expect(response.status).toBe(400);
    expect(web.requests).toEqual([]);
  });

  test("never contacted the local site", () => {
    expect(web.requests).toEqual([]);
  });
});

describe("FETCH_ALLOWED_HOSTS in production", () => {
  // localhost is listed, as an intranet wiki would be; 127.0.0.1 (the same site) is not.
  let allowing: TestApp;
  let allowingOrg: TestOrganization;
  let intranet: FakeWebSite;
  let intranetStoreId: string;
  const intranetPort = () => new URL(intranet.base).port;

  beforeAll(async () => {
    allowing = await startTestApp({
      env: { NODE_ENV: "production", FETCH_ALLOWED_HOSTS: "localhost" },
    });
    allowingOrg = await allowing.createOrganization("Intranet Co");
    intranet = await startFakeWebSite({
      "/page": htmlPage("Handbook", "Expense reports are due on the fifth of each month."),
    });
    intranet.routes.set("/hop", {
      status: 302,
      headers: { location: `http://127.0.0.1:${intranetPort()}/page` },
    });
    intranetStoreId = (await createDatastore(allowing, allowingOrg)).id;
  });
  afterAll(async () => {
    await allowing.close();
    await intranet.close();
  });

  const createPage = (sourceUrl: string) =>
    allowing.client(allowingOrg.auth).datasources.create({
      datastoreId: intranetStoreId,
      type: "web_page",
      config: { source_url: sourceUrl },
    });

  test("fetches and syncs a page of a listed host", async () => {
    const response = await createPage(`http://localhost:${intranetPort()}/page`);
    expect(response.status).toBe(201);
    const synched = await waitForSync(allowing, allowingOrg, response.body.id);
    expect(synched.status).toBe("synched");
    expect(synched.chunkCount).toBeGreaterThan(0);
    const results = await query(allowing, allowingOrg, intranetStoreId, {
      query: "when are expense reports due",
    });
    expect(results.status).toBe(200);
    expect(results.body[0]!.text).toContain("fifth of each month");
    expect(intranet.requests).toContain("/page");
  });

  test("refuses an unlisted address with 400 even when it is the same site", async () => {
    intranet.requests.length = 0;
    const response = await createPage(`http://127.0.0.1:${intranetPort()}/page`);
    expect(response.status).toBe(400);
    expect(response.error.error).toContain(
      `http://127.0.0.1:${intranetPort()} refused: the address is not public`,
    );
    expect(response.error.error).not.toContain("loopback");
    expect(intranet.requests).toEqual([]);
  });

  test("accepts a listed host whose redirect to 127.0.0.1 then ends the sync in error", async () => {
    intranet.requests.length = 0;
    // The route checks only the URL it is given; the redirect is refused by the job's fetch.
    const response = await createPage(`http://localhost:${intranetPort()}/hop`);
    expect(response.status).toBe(201);
    const failed = await waitForSync(allowing, allowingOrg, response.body.id);
    expect(failed.status).toBe("error");
    expect(failed.errorMessage).toBe(
      `http://127.0.0.1:${intranetPort()} refused: the address is not public`,
    );
    expect(failed.chunkCount).toBe(0);
    expect(intranet.requests).toEqual(["/hop"]);
  });
});
