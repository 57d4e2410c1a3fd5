import { describe, expect } from "vitest";
import {
  type FakeWebSite,
  htmlPage,
  robots,
  sitemap,
  startFakeWebSite,
} from "../fakes/web-site.ts";
import { unchecked } from "../harness/client.ts";
import {
  createDatastore,
  type Datasource,
  type KnowledgeFixtures,
  knowledgeTest,
  type QueryResult,
  query,
  waitForSync,
} from "./knowledge-helpers.ts";

const PAGE_LIMIT = 4;

const test = knowledgeTest({
  orgName: "Web Co",
  env: { WEB_SITE_PAGE_LIMIT: String(PAGE_LIMIT) },
}).extend("site", { scope: "file" }, ({ service }, { onCleanup }) => {
  // Started after the app, so closed before it.
  void service;
  const sites: FakeWebSite[] = [];
  onCleanup(async () => {
    await Promise.all(sites.map((site) => site.close()));
  });
  /** Starts a fake web site, closed with the file. */
  return async (routes: Parameters<typeof startFakeWebSite>[0] = {}) => {
    const started = await startFakeWebSite(routes);
    sites.push(started);
    return started;
  };
});

async function addWeb(
  { app, org }: Pick<KnowledgeFixtures, "app" | "org">,
  datastoreId: string,
  body: Record<string, unknown>,
): Promise<Datasource> {
  const response = await app
    .client(org.auth)
    .datasources.create(unchecked({ datastoreId, ...body }));
  if (response.status !== 201) throw new Error(`create: ${response.text}`);
  return response.body;
}

async function children(
  { app, org }: Pick<KnowledgeFixtures, "app" | "org">,
  datastoreId: string,
  siteId: string,
): Promise<Datasource[]> {
  const response = await app.client(org.auth).datastores.datasources(datastoreId);
  expect(response.status).toBe(200);
  return (response.body as Datasource[]).filter((datasource) => datasource.groupId === siteId);
}

const pathsOf = (pages: Datasource[]) =>
  pages.map((page) => new URL(String(page.config.source_url)).pathname).sort();

async function search(
  { app, org }: Pick<KnowledgeFixtures, "app" | "org">,
  datastoreId: string,
  text: string,
): Promise<QueryResult[]> {
  const response = await query(app, org, datastoreId, { query: text, topK: 10 });
  expect(response.status).toBe(200);
  return response.body;
}

describe("web_page", () => {
  test("indexes the readable main content as Markdown with its title, without navigation", async ({
    app,
    org,
    site,
  }) => {
    const web = await site();
    web.routes.set(
      "/guide",
      htmlPage(
        "Descaling guide",
        "Descale the espresso machine every forty shots with citric acid.",
      ),
    );
    const store = await createDatastore(app, org);
    const created = await addWeb({ app, org }, store.id, {
      type: "web_page",
      name: "Guide",
      config: { source_url: `${web.base}/guide` },
    });
    expect(created).toMatchObject({ type: "web_page", name: "Guide", groupId: null });
    expect(["pending", "running", "synched"]).toContain(created.status);

    const synced = await waitForSync(app, org, created.id);
    expect(synced).toMatchObject({ status: "synched", errorMessage: null });
    expect(synced.lastSynch).not.toBeNull();
    expect(synced.chunkCount).toBeGreaterThan(0);

    const results = await search({ app, org }, store.id, "how often to descale with citric acid");
    expect(results[0]).toMatchObject({ source: `${web.base}/guide`, datasource_name: "Guide" });
    expect(results[0]!.text).toContain("# Descaling guide");
    expect(results[0]!.text).toContain("forty shots");
    const everything = (
      await search({ app, org }, store.id, "menu home pricing careers copyright footer")
    )
      .map((result) => result.text)
      .join(" ");
    expect(everything).not.toContain("Careers");
    expect(everything).not.toContain("Copyright");
  });

  test("ends in error with the HTTP status when the page is missing", async ({
    app,
    org,
    site,
  }) => {
    const web = await site();
    const store = await createDatastore(app, org);
    const created = await addWeb({ app, org }, store.id, {
      type: "web_page",
      config: { source_url: `${web.base}/missing` },
    });
    const synced = await waitForSync(app, org, created.id);
    expect(synced.status).toBe("error");
    expect(synced.errorMessage).toBe(`${web.base}/missing answered HTTP 404`);
  });
});

describe("web_site", () => {
  test("follows the given sitemap, honours robots.txt Disallow and makes each page a child", async ({
    app,
    org,
    site,
  }) => {
    const web = await site();
    web.routes.set("/robots.txt", robots(["User-agent: *", "Disallow: /private"]));
    web.routes.set(
      "/map.xml",
      sitemap([
        `${web.base}/a`,
        `${web.base}/b`,
        `${web.base}/private/secret`,
        "http://elsewhere.example/x",
      ]),
    );
    web.routes.set("/a", htmlPage("Alpha", "Alpha page talks about solar inverters."));
    web.routes.set("/b", htmlPage("Beta", "Beta page talks about heat pumps."));
    web.routes.set("/private/secret", htmlPage("Secret", "Launch codes for the moon base."));
    const store = await createDatastore(app, org);
    const created = await addWeb({ app, org }, store.id, {
      type: "web_site",
      name: "Energy site",
      config: { sitemap: `${web.base}/map.xml` },
    });
    const synced = await waitForSync(app, org, created.id);
    expect(synced).toMatchObject({ status: "synched", type: "web_site" });

    const pages = await children({ app, org }, store.id, created.id);
    expect(pathsOf(pages)).toEqual(["/a", "/b"]);
    for (const page of pages) expect(page).toMatchObject({ type: "web_page", status: "synched" });
    expect(web.requests).not.toContain("/private/secret");
    expect(synced.chunkCount).toBe(pages.reduce((sum, page) => sum + page.chunkCount, 0));
    expect(pages.map((page) => page.name).sort()).toEqual(["Alpha", "Beta"]);

    const hits = await search({ app, org }, store.id, "heat pumps");
    expect(hits[0]).toMatchObject({ source: `${web.base}/b` });
    const filtered = await query(app, org, store.id, {
      query: "heat pumps",
      filters: { datasource_ids: [created.id] },
    });
    expect(filtered.body.length).toBeGreaterThan(0);
  });

  test("finds the sitemap named by robots.txt", async ({ app, org, site }) => {
    const web = await site();
    web.routes.set(
      "/robots.txt",
      robots(["User-agent: *", "Allow: /", `Sitemap: ${web.base}/custom-map.xml`]),
    );
    web.routes.set("/custom-map.xml", sitemap([`${web.base}/one`]));
    web.routes.set("/one", htmlPage("One", "The only page listed by the robots sitemap."));
    web.routes.set("/not-listed", htmlPage("Hidden", "Not in any sitemap."));
    const store = await createDatastore(app, org);
    const created = await addWeb({ app, org }, store.id, {
      type: "web_site",
      config: { source_url: `${web.base}/` },
    });
    expect((await waitForSync(app, org, created.id)).status).toBe("synched");
    expect(pathsOf(await children({ app, org }, store.id, created.id))).toEqual(["/one"]);
    expect(web.requests).not.toContain("/sitemap.xml");
  });

  test("falls back to /sitemap.xml when robots.txt names none", async ({ app, org, site }) => {
    const web = await site();
    web.routes.set("/sitemap.xml", sitemap([`${web.base}/x`, `${web.base}/y`]));
    web.routes.set("/x", htmlPage("X", "Page x."));
    web.routes.set("/y", htmlPage("Y", "Page y."));
    const store = await createDatastore(app, org);
    const created = await addWeb({ app, org }, store.id, {
      type: "web_site",
      config: { source_url: `${web.base}/` },
    });
    expect((await waitForSync(app, org, created.id)).status).toBe("synched");
    expect(pathsOf(await children({ app, org }, store.id, created.id))).toEqual(["/x", "/y"]);
    expect(web.requests).toContain("/robots.txt");
  });

  test("crawls the origin when there is no sitemap, obeying robots.txt and the page cap", async ({
    app,
    org,
    site,
  }) => {
    const web = await site();
    web.routes.set("/robots.txt", robots(["User-agent: agentdesk", "Disallow: /admin"]));
    web.routes.set(
      "/",
      htmlPage("Home", "Welcome home.", ["/p1", "/admin/panel", "http://other.example/"]),
    );
    web.routes.set("/p1", htmlPage("P1", "First page.", ["/p2", "/#top", "/logo.png"]));
    web.routes.set("/p2", htmlPage("P2", "Second page.", ["/p3"]));
    web.routes.set("/p3", htmlPage("P3", "Third page.", ["/p4"]));
    web.routes.set("/p4", htmlPage("P4", "Fourth page, past the cap."));
    web.routes.set("/admin/panel", htmlPage("Admin", "Disallowed."));
    const store = await createDatastore(app, org);
    const created = await addWeb({ app, org }, store.id, {
      type: "web_site",
      config: { source_url: `${web.base}/` },
    });
    expect((await waitForSync(app, org, created.id)).status).toBe("synched");
    expect(pathsOf(await children({ app, org }, store.id, created.id))).toEqual([
      "/",
      "/p1",
      "/p2",
      "/p3",
    ]);
    expect(web.requests).not.toContain("/admin/panel");
    expect(web.requests).not.toContain("/p4");
    expect(web.requests).not.toContain("/logo.png");
  });

  test("deletes pages that disappeared when the site is synced again", async ({
    app,
    org,
    site,
  }) => {
    const web = await site();
    web.routes.set("/sitemap.xml", sitemap([`${web.base}/keep`, `${web.base}/gone`]));
    web.routes.set("/keep", htmlPage("Keep", "This page stays on the site."));
    web.routes.set("/gone", htmlPage("Gone", "Zebra crossings are striped."));
    const store = await createDatastore(app, org);
    const created = await addWeb({ app, org }, store.id, {
      type: "web_site",
      config: { source_url: web.base },
    });
    expect((await waitForSync(app, org, created.id)).status).toBe("synched");
    const before = await children({ app, org }, store.id, created.id);
    expect(pathsOf(before)).toEqual(["/gone", "/keep"]);
    expect((await search({ app, org }, store.id, "zebra crossings striped"))[0]?.source).toBe(
      `${web.base}/gone`,
    );

    web.routes.set("/sitemap.xml", sitemap([`${web.base}/keep`]));
    web.routes.delete("/gone");
    const resync = await app.client(org.auth).datasources.sync(created.id);
    expect(resync.status).toBe(202);
    expect((await waitForSync(app, org, created.id)).status).toBe("synched");
    const after = await children({ app, org }, store.id, created.id);
    expect(pathsOf(after)).toEqual(["/keep"]);
    expect(after[0]!.id).toBe(before.find((page) => page.name === "Keep")!.id);
    const sources = (await search({ app, org }, store.id, "zebra crossings striped")).map(
      (hit) => hit.source,
    );
    expect(sources).not.toContain(`${web.base}/gone`);
  });

  test("DELETE of a site removes its pages and their chunks", async ({ app, org, site }) => {
    const web = await site();
    web.routes.set("/sitemap.xml", sitemap([`${web.base}/only`]));
    web.routes.set("/only", htmlPage("Only", "Platypus facts live here."));
    const store = await createDatastore(app, org);
    const created = await addWeb({ app, org }, store.id, {
      type: "web_site",
      config: { source_url: web.base },
    });
    expect((await waitForSync(app, org, created.id)).status).toBe("synched");
    const [page] = await children({ app, org }, store.id, created.id);

    const deleted = await app.client(org.auth).datasources.delete(created.id);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({ id: created.id, type: "web_site" });
    const pageGone = await app.client(org.auth).datasources.get(page!.id);
    expect(pageGone.status).toBe(404);
    expect(await search({ app, org }, store.id, "platypus facts")).toEqual([]);
  });

  test("ends in error when robots.txt forbids the whole site", async ({ app, org, site }) => {
    const web = await site();
    web.routes.set("/robots.txt", robots(["User-agent: *", "Disallow: /"]));
    web.routes.set("/", htmlPage("Home", "Nobody may crawl this."));
    const store = await createDatastore(app, org);
    const created = await addWeb({ app, org }, store.id, {
      type: "web_site",
      config: { source_url: `${web.base}/` },
    });
    const synced = await waitForSync(app, org, created.id);
    expect(synced.status).toBe("error");
    expect(synced.errorMessage).toContain("robots.txt disallows");
    expect(web.requests).not.toContain("/");
  });
});
