import { sql } from "drizzle-orm";
import { describe, expect } from "vitest";
import { rowsOf } from "../../src/db/client.ts";
import { htmlPage, sitemap, startFakeWebSite } from "../fakes/web-site.ts";
import { startTestApp, type TestApp } from "../harness/app.ts";
import { databaseTest } from "../harness/fixtures.ts";
import {
  addFile,
  createDatastore,
  type Datasource,
  getDatasource,
  waitForSync,
} from "./knowledge-helpers.ts";

// Deleting a datastore or a datasource deletes the ingestion jobs still queued for it. The file
// first runs a worker (to sync a web site, whose pages exist only after a sync, and to delete a
// datasource while its job runs), then an API-only app on the same database, whose jobs stay
// queued because no worker takes them.

const test = databaseTest()
  .extend("worker", { scope: "file" }, async ({ database }, { onCleanup }) => {
    const worker = await startTestApp({ database, env: { KNOWLEDGE_FETCH_TIMEOUT_MS: "1500" } });
    // Closed once: by the API-only app before it starts, or when the file is done.
    let closed: Promise<void> | undefined;
    const close = () => {
      closed ??= worker.close();
      return closed;
    };
    onCleanup(close);
    return { ...worker, close };
  })
  .extend("org", { scope: "file" }, ({ worker }) => worker.createOrganization("Cleanup Co"))
  .extend("web", { scope: "file" }, async ({ worker }, { onCleanup }) => {
    // Started after the worker, so closed before it.
    void worker;
    const web = await startFakeWebSite({
      "/a": htmlPage("Alpha", "Alpha page."),
      "/slow": { hang: true },
    });
    onCleanup(() => web.close());
    web.routes.set("/b", htmlPage("Beta", "Beta page."));
    web.routes.set("/sitemap.xml", sitemap([`${web.base}/a`, `${web.base}/b`]));
    return web;
  })
  .extend("app", { scope: "file" }, async ({ database, worker }, { onCleanup }) => {
    await worker.close();
    const app = await startTestApp({ database, role: "api" });
    onCleanup(() => app.close());
    return app;
  });

let site: Datasource;
let pages: Datasource[];

type JobRow = { id: string; datasourceId: string; state: string };

async function ingestJobs(app: TestApp): Promise<JobRow[]> {
  const result = await app.database.db.execute(
    sql`select id::text as id, data->>'datasourceId' as "datasourceId", state::text as state
        from pgboss.job where name = 'knowledge.ingest' order by created_on, id`,
  );
  return rowsOf<JobRow>(result);
}

async function queuedJobIds(app: TestApp, datasourceIds: string[]): Promise<string[]> {
  return (await ingestJobs(app))
    .filter((job) => datasourceIds.includes(job.datasourceId) && job.state === "created")
    .map((job) => job.id);
}

const note = (text: string) => ({
  fileName: "note.md",
  contentType: "text/markdown",
  content: text,
});

async function until<T>(check: () => Promise<T | null>, what: string): Promise<T> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const value = await check();
    if (value !== null) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

test.beforeAll(async ({ worker, org, web }) => {
  const store = await createDatastore(worker, org);
  const created = await worker.client(org.auth).datasources.create({
    datastoreId: store.id,
    type: "web_site",
    config: { source_url: `${web.base}/` },
  });
  expect(created.status).toBe(201);
  site = await waitForSync(worker, org, created.body.id);
  expect(site.status).toBe("synched");
  const listed = await worker.client(org.auth).datastores.datasources(store.id);
  pages = (listed.body as Datasource[]).filter((row) => row.groupId === site.id);
  expect(pages).toHaveLength(2);
});

describe("deleting a datasource while its job runs", () => {
  test("leaves the running job alone, and the job ends without bringing the datasource back", async ({
    worker: app,
    org,
    web,
  }) => {
    const store = await createDatastore(app, org);
    const created = await app.client(org.auth).datasources.create({
      datastoreId: store.id,
      type: "web_page",
      config: { source_url: `${web.base}/slow` },
    });
    expect(created.status).toBe(201);
    const id: string = created.body.id;
    await until(async () => {
      const row = await getDatasource(app, org, id);
      return row.status === "running" ? row : null;
    }, "the job to start");

    const deleted = await app.client(org.auth).datasources.delete(id);
    expect(deleted.status).toBe(200);
    const job = (await ingestJobs(app)).find((row) => row.datasourceId === id);
    expect(job?.state).toBe("active");

    // The page never answers; the fetch times out, the job records nothing and completes.
    await until(async () => {
      const row = (await ingestJobs(app)).find((candidate) => candidate.id === job?.id);
      return row?.state === "completed" ? row : null;
    }, "the job to complete");
    const gone = await app.client(org.auth).datasources.get(id);
    expect(gone.status).toBe(404);
  });
});

describe("deleting removes queued ingestion jobs", () => {
  test("DELETE of a datastore deletes the queued jobs of its datasources, not another datastore's", async ({
    app,
    org,
  }) => {
    const doomed = await createDatastore(app, org);
    const kept = await createDatastore(app, org);
    const first = await addFile(app, org, doomed.id, note("First note."));
    const second = await addFile(app, org, doomed.id, note("Second note."));
    const other = await addFile(app, org, kept.id, note("Kept note."));
    expect([first.status, second.status, other.status]).toEqual(["pending", "pending", "pending"]);
    const doomedJobs = await queuedJobIds(app, [first.id, second.id]);
    const keptJobs = await queuedJobIds(app, [other.id]);
    expect(doomedJobs).toHaveLength(2);
    expect(keptJobs).toHaveLength(1);

    const response = await app.client(org.auth).datastores.delete(doomed.id);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ id: doomed.id });

    const remaining = (await ingestJobs(app)).map((job) => job.id);
    for (const id of doomedJobs) expect(remaining).not.toContain(id);
    expect(await queuedJobIds(app, [other.id])).toEqual(keptJobs);
    expect((await getDatasource(app, org, other.id)).status).toBe("pending");
  });

  test("DELETE of a datasource deletes each of its queued jobs and no other", async ({
    app,
    org,
  }) => {
    const store = await createDatastore(app, org);
    const doomed = await addFile(app, org, store.id, note("Doomed note."));
    const sibling = await addFile(app, org, store.id, note("Sibling note."));
    const resync = await app.client(org.auth).datasources.sync(doomed.id);
    expect(resync.status).toBe(202);
    const doomedJobs = await queuedJobIds(app, [doomed.id]);
    const siblingJobs = await queuedJobIds(app, [sibling.id]);
    expect(doomedJobs).toHaveLength(2);
    expect(siblingJobs).toHaveLength(1);

    const response = await app.client(org.auth).datasources.delete(doomed.id);
    expect(response.status).toBe(200);

    const remaining = (await ingestJobs(app)).map((job) => job.id);
    for (const id of doomedJobs) expect(remaining).not.toContain(id);
    expect(await queuedJobIds(app, [sibling.id])).toEqual(siblingJobs);
  });

  test("DELETE of a web site deletes the queued jobs of the site and of its pages", async ({
    app,
    org,
  }) => {
    const elsewhere = await addFile(
      app,
      org,
      (await createDatastore(app, org)).id,
      note("Elsewhere."),
    );
    for (const id of [site.id, pages[0]!.id]) {
      const resync = await app.client(org.auth).datasources.sync(id);
      expect(resync.status).toBe(202);
    }
    const siteJobs = await queuedJobIds(app, [site.id, ...pages.map((page) => page.id)]);
    expect(siteJobs).toHaveLength(2);
    const elsewhereJobs = await queuedJobIds(app, [elsewhere.id]);

    const response = await app.client(org.auth).datasources.delete(site.id);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ id: site.id, type: "web_site" });

    const remaining = (await ingestJobs(app)).map((job) => job.id);
    for (const id of siteJobs) expect(remaining).not.toContain(id);
    expect(await queuedJobIds(app, [elsewhere.id])).toEqual(elsewhereJobs);
  });

  test("another organization's DELETE is 404 and leaves the jobs queued", async ({ app, org }) => {
    const intruder = await app.createOrganization("Intruder Co");
    const store = await createDatastore(app, org);
    const datasource = await addFile(app, org, store.id, note("Private note."));
    const jobs = await queuedJobIds(app, [datasource.id]);
    expect(jobs).toHaveLength(1);
    for (const url of [`/api/datasources/${datasource.id}`, `/api/datastores/${store.id}`]) {
      const response = await app
        .client()
        .request({ method: "DELETE", url, headers: intruder.auth });
      expect(response.status).toBe(404);
    }
    expect(await queuedJobIds(app, [datasource.id])).toEqual(jobs);
  });
});
