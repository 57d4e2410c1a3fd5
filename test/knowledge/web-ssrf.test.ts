import { describe, expect } from "vitest";
import { type FakeWebSite, htmlPage, startFakeWebSite } from "../fakes/web-site.ts";
import { startTestApp } from "../harness/app.ts";
import { createDatastore, knowledgeTest, query, waitForSync } from "./knowledge-helpers.ts";

// With NODE_ENV=production the server refuses to fetch loopback, private, link-local and
// metadata addresses, whatever the notation and after DNS resolution. The local test site below
// is real and reachable, so a refusal proves the policy, not a dead port.

const test = knowledgeTest({
  env: { NODE_ENV: "production" },
  orgName: "Prod Co",
  web: { "/page": htmlPage("Internal", "Internal admin secrets.") },
})
  // localhost is listed, as an intranet wiki would be; 127.0.0.1 (the same site) is not.
  .extend(
    "allowing",
    { scope: "file" },
    // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from it.
    async ({}, { onCleanup }) => {
      const allowing = await startTestApp({
        env: { NODE_ENV: "production", FETCH_ALLOWED_HOSTS: "localhost" },
      });
      onCleanup(() => allowing.close());
      return allowing;
    },
  )
  .extend("allowingOrg", { scope: "file" }, ({ allowing }) =>
    allowing.createOrganization("Intranet Co"),
  )
  .extend("intranet", { scope: "file" }, async ({ allowing }, { onCleanup }) => {
    // Started after the app it serves, so closed before it.
    void allowing;
    const intranet = await startFakeWebSite({
      "/page": htmlPage("Handbook", "Expense reports are due on the fifth of each month."),
    });
    onCleanup(() => intranet.close());
    intranet.routes.set("/hop", {
      status: 302,
      headers: { location: `http://127.0.0.1:${portOf(intranet)}/page` },
    });
    return intranet;
  })
  .extend("intranetStore", { scope: "file" }, ({ allowing, allowingOrg }) =>
    createDatastore(allowing, allowingOrg),
  )
  .extend("createPage", { scope: "file" }, ({ allowing, allowingOrg, intranetStore }) => {
    return (sourceUrl: string) =>
      allowing.client(allowingOrg.auth).datasources.create({
        datastoreId: intranetStore.id,
        type: "web_page",
        config: { source_url: sourceUrl },
      });
  });

function portOf(site: FakeWebSite) {
  return new URL(site.base).port;
}

describe("SSRF in production", () => {
  test.for([
    ["127.0.0.1", (p: string) => `http://127.0.0.1:${p}/page`],
    ["0x7f000001", (p: string) => `http://0x7f000001:${p}/page`],
    ["2130706433", (p: string) => `http://2130706433:${p}/page`],
    ["[::1]", (p: string) => `http://[::1]:${p}/page`],
    ["localhost (resolves to loopback)", (p: string) => `http://localhost:${p}/page`],
    ["cloud metadata", () => "http://169.254.169.254/latest/meta-data/"],
    ["a private network", () => "http://10.1.2.3/"],
  ] as const)(
    "refuses a web_page at %s with 400",
    async ([_, url], { app, org, web, datastore }) => {
      const response = await app.client(org.auth).datasources.create({
        datastoreId: datastore.id,
        type: "web_page",
        config: { source_url: url(portOf(web)) },
      });
      expect(response.status).toBe(400);
      expect(response.error.error).toBe(
        `config: ${new URL(url(portOf(web))).origin} refused: the address is not public`,
      );
    },
  );

  test("refuses a web_site whose sitemap is on a private address", async ({
    app,
    org,
    web,
    datastore,
  }) => {
    const response = await app.client(org.auth).datasources.create({
      datastoreId: datastore.id,
      type: "web_site",
      config: {
        source_url: "https://example.com/",
        sitemap: `http://127.0.0.1:${portOf(web)}/sitemap.xml`,
      },
    });
    expect(response.status).toBe(400);
    expect(web.requests).toEqual([]);
  });

  test("never contacted the local site", ({ web }) => {
    expect(web.requests).toEqual([]);
  });
});

describe("FETCH_ALLOWED_HOSTS in production", () => {
  test("fetches and syncs a page of a listed host", async ({
    allowing,
    allowingOrg,
    intranet,
    intranetStore,
    createPage,
  }) => {
    const response = await createPage(`http://localhost:${portOf(intranet)}/page`);
    expect(response.status).toBe(201);
    const synched = await waitForSync(allowing, allowingOrg, response.body.id);
    expect(synched.status).toBe("synched");
    expect(synched.chunkCount).toBeGreaterThan(0);
    const results = await query(allowing, allowingOrg, intranetStore.id, {
      query: "when are expense reports due",
    });
    expect(results.status).toBe(200);
    expect(results.body[0]!.text).toContain("fifth of each month");
    expect(intranet.requests).toContain("/page");
  });

  test("refuses an unlisted address with 400 even when it is the same site", async ({
    intranet,
    createPage,
  }) => {
    intranet.requests.length = 0;
    const response = await createPage(`http://127.0.0.1:${portOf(intranet)}/page`);
    expect(response.status).toBe(400);
    expect(response.error.error).toContain(
      `http://127.0.0.1:${portOf(intranet)} refused: the address is not public`,
    );
    expect(response.error.error).not.toContain("loopback");
    expect(intranet.requests).toEqual([]);
  });

  test("accepts a listed host whose redirect to 127.0.0.1 then ends the sync in error", async ({
    allowing,
    allowingOrg,
    intranet,
    createPage,
  }) => {
    intranet.requests.length = 0;
    // The route checks only the URL it is given; the redirect is refused by the job's fetch.
    const response = await createPage(`http://localhost:${portOf(intranet)}/hop`);
    expect(response.status).toBe(201);
    const failed = await waitForSync(allowing, allowingOrg, response.body.id);
    expect(failed.status).toBe("error");
    expect(failed.errorMessage).toBe(
      `http://127.0.0.1:${portOf(intranet)} refused: the address is not public`,
    );
    expect(failed.chunkCount).toBe(0);
    expect(intranet.requests).toEqual(["/hop"]);
  });
});
