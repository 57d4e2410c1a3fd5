import { sql } from "drizzle-orm";
import { describe, expect } from "vitest";
import { rowsOf } from "../../src/db/client.ts";
import { htmlPage, sitemap } from "../fakes/web-site.ts";
import { unchecked } from "../harness/client.ts";
import {
  addFile,
  type Datasource,
  getDatasource,
  knowledgeTest,
  type QueryResult,
  query,
  uploadFile,
  waitForSync,
} from "./knowledge-helpers.ts";

// Scheduled re-sync of web datasources: the setting on create and PATCH, the fields of the view,
// and the knowledge.sync-schedule job, run here through the job queue on a datasource made due
// by moving its next_sync_at into the past. Embeddings come from a fake OpenAI server, so the
// tests count the embedding calls a re-sync makes.

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

const test = knowledgeTest({
  offline: false,
  orgName: "Schedule Co",
  env: { EMBEDDINGS_MODEL: "openai:text-embedding-3-small", EMBEDDINGS_DIMENSIONS: "64" },
})
  .extend("stranger", { scope: "file" }, ({ app }) => app.createOrganization("Stranger Co"))
  .extend("schedule", { scope: "file" }, ({ app, org, fake, web, datastore }) => {
    const client = () => app.client(org.auth);

    /**
     * Embedding calls made so far, or only those that embedded `text`: other pages of this file may
     * still be synced by the minute's scheduler meanwhile.
     */
    const embeddingCalls = (text?: string) =>
      fake.requests.filter(
        (request) =>
          request.path === "/v1/embeddings" &&
          (text === undefined || JSON.stringify(request.body).includes(text)),
      ).length;

    async function addPage(
      path: string,
      article: string,
      extra: Record<string, unknown> = {},
    ): Promise<Datasource> {
      web.routes.set(path, htmlPage(`Page ${path}`, article));
      const response = await client().datasources.create(
        unchecked({
          datastoreId: datastore.id,
          type: "web_page",
          config: { source_url: `${web.base}${path}` },
          ...extra,
        }),
      );
      if (response.status !== 201) throw new Error(`create: ${response.text}`);
      return response.body;
    }

    async function row(id: string) {
      const result = await app.database.db.execute(
        sql`select sync_generation as generation, next_sync_at as "nextSyncAt"
            from datasources where id = ${id}`,
      );
      return rowsOf<{ generation: number; nextSyncAt: unknown }>(result)[0] ?? null;
    }

    async function chunkRows(datasourceId: string) {
      const result = await app.database.db.execute(
        sql`select id, content_hash from knowledge_chunks where datasource_id = ${datasourceId} order by position`,
      );
      return rowsOf<{ id: string; content_hash: string }>(result);
    }

    /** What a datasource looks like once its scheduled time has passed (by a month, here). */
    async function makeDue(id: string) {
      await app.database.db.execute(
        sql`update datasources set next_sync_at = now() - interval '30 days' where id = ${id}`,
      );
    }

    /** Sends the scheduler's job through the job queue and waits until the worker completed it. */
    async function runScheduler() {
      const id = await app.runtime.jobs.send("knowledge.sync-schedule", {});
      const readState = async () => {
        const result = await app.database.db.execute(
          sql`select state::text as state, output from pgboss.job where id = ${id}::uuid`,
        );
        return rowsOf<{ state: string; output: unknown }>(result)[0];
      };
      const job = await until(
        readState,
        (found) => found !== undefined && ["completed", "failed"].includes(found.state),
        "the scheduler job",
      );
      expect(job, JSON.stringify(job?.output)).toMatchObject({ state: "completed" });
    }

    /** Waits for a successful sync that ended after `previous` (the lastSynch before it). */
    const waitForNextSync = (id: string, previous: string | null) =>
      until(
        () => getDatasource(app, org, id),
        (found) =>
          ["synched", "error", "usage_limit_reached"].includes(found.status) &&
          found.lastSynch !== previous,
        `a new sync of ${id}`,
      );

    async function search(text: string): Promise<QueryResult[]> {
      const response = await query(app, org, datastore.id, { query: text, topK: 10 });
      expect(response.status).toBe(200);
      return response.body;
    }

    return {
      client,
      embeddingCalls,
      addPage,
      row,
      chunkRows,
      makeDue,
      runScheduler,
      waitForNextSync,
      search,
    };
  });

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string) {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("the syncSchedule setting", () => {
  test("is accepted on create and shown in the view with the next sync time", async ({
    app,
    org,
    datastore,
    schedule,
  }) => {
    const { client, addPage } = schedule;
    const created = await addPage("/daily", "Opening hours are nine to five.", {
      syncSchedule: "daily",
    });
    expect(created.syncSchedule).toBe("daily");
    // Set in the statement that created it: exactly one interval after createdAt.
    expect(Date.parse(created.nextSyncAt!) - Date.parse(created.createdAt)).toBe(DAY_MS);

    const synced = await waitForSync(app, org, created.id);
    expect(synced).toMatchObject({
      status: "synched",
      syncSchedule: "daily",
      nextSyncAt: created.nextSyncAt,
    });
    expect(synced.lastSynch).not.toBeNull();
    const listed = await client().datastores.datasources(datastore.id);
    expect(listed.body.find((item) => item.id === created.id)).toMatchObject({
      syncSchedule: "daily",
      nextSyncAt: created.nextSyncAt,
    });
  });

  test("is null, with no next time, when not given or given as null", async ({ schedule }) => {
    const { addPage } = schedule;
    const plain = await addPage("/plain", "No schedule here.");
    expect(plain).toMatchObject({ syncSchedule: null, nextSyncAt: null });
    const explicit = await addPage("/explicit", "No schedule either.", { syncSchedule: null });
    expect(explicit).toMatchObject({ syncSchedule: null, nextSyncAt: null });
  });

  test("is set, kept, changed and removed with PATCH /api/datasources/{id}", async ({
    app,
    org,
    schedule,
  }) => {
    const { client, addPage } = schedule;
    const page = await addPage("/patched", "Delivery takes two days.");
    await waitForSync(app, org, page.id);

    const hourly = await client().datasources.update(page.id, { syncSchedule: "hourly" });
    expect(hourly.status).toBe(200);
    expect(hourly.body).toMatchObject({ id: page.id, syncSchedule: "hourly", status: "synched" });
    expect(Date.parse(hourly.body.nextSyncAt!) - Date.parse(hourly.body.updatedAt)).toBe(HOUR_MS);

    const again = await client().datasources.update(page.id, { syncSchedule: "hourly" });
    expect(again.body.nextSyncAt).toBe(hourly.body.nextSyncAt);

    const weekly = await client().datasources.update(page.id, { syncSchedule: "weekly" });
    expect(weekly.body.syncSchedule).toBe("weekly");
    expect(Date.parse(weekly.body.nextSyncAt!) - Date.parse(weekly.body.updatedAt)).toBe(
      7 * DAY_MS,
    );
    expect((await getDatasource(app, org, page.id)).nextSyncAt).toBe(weekly.body.nextSyncAt);

    const removed = await client().datasources.update(page.id, { syncSchedule: null });
    expect(removed.status).toBe(200);
    expect(removed.body).toMatchObject({ syncSchedule: null, nextSyncAt: null });
  });
});

describe("bad input", () => {
  test("refuses a schedule that is not hourly, daily, weekly or null, on create and PATCH", async ({
    app,
    org,
    web,
    datastore,
    schedule,
  }) => {
    const { client, addPage } = schedule;
    for (const syncSchedule of ["monthly", "HOURLY", "", 60, true, { every: "hour" }]) {
      const created = await client().datasources.create(
        unchecked({
          datastoreId: datastore.id,
          type: "web_page",
          config: { source_url: `${web.base}/never` },
          syncSchedule,
        }),
      );
      expect(created.status, JSON.stringify(syncSchedule)).toBe(400);
      expect(created.error).toMatchObject({ type: "INVALID_REQUEST" });
      expect(created.error.error).toContain("syncSchedule must be hourly, daily, weekly or null");
    }
    const listed = await client().datastores.datasources(datastore.id);
    expect(listed.body.some((item) => String(item.config.source_url).endsWith("/never"))).toBe(
      false,
    );

    const page = await addPage("/bad-patch", "Returns within thirty days.");
    for (const body of [{ syncSchedule: "monthly" }, { syncSchedule: 1 }, {}, []]) {
      const response = await client().datasources.update(page.id, unchecked(body));
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.error.type).toBe("INVALID_REQUEST");
    }
    const raw = await client().request({
      method: "PATCH",
      url: `/api/datasources/${page.id}`,
      headers: { "content-type": "application/json" },
      payload: "{not json",
    });
    expect(raw.status).toBe(400);
    expect((await getDatasource(app, org, page.id)).syncSchedule).toBeNull();
  });

  test("refuses a schedule on a file, on upload and on PATCH, saying why", async ({
    app,
    org,
    datastore,
    schedule,
  }) => {
    const { client } = schedule;
    const upload = await uploadFile(
      app,
      org,
      datastore.id,
      { fileName: "faq.md", contentType: "text/markdown", content: "Questions and answers." },
      [{ name: "syncSchedule", value: "daily" }],
    );
    expect(upload.status).toBe(400);
    expect(upload.error.error).toBe(
      "syncSchedule applies only to web_page and web_site datasources (a file or text changes only when uploaded again)",
    );

    const file = await addFile(app, org, datastore.id, {
      fileName: "terms.md",
      contentType: "text/markdown",
      content: "Terms of service.",
    });
    const patched = await client().datasources.update(file.id, { syncSchedule: "weekly" });
    expect(patched.status).toBe(400);
    expect(patched.error.error).toContain("syncSchedule applies only to web_page and web_site");
    expect((await getDatasource(app, org, file.id)).syncSchedule).toBeNull();
    // Removing a schedule it does not have is refused the same way: the setting does not exist.
    expect((await client().datasources.update(file.id, { syncSchedule: null })).status).toBe(400);
  });

  test("drops the schedule of a web page turned into text by the deprecated update", async ({
    app,
    org,
    datastore,
    schedule,
  }) => {
    const { client, addPage } = schedule;
    const page = await addPage("/to-text", "Soon plain text.", { syncSchedule: "hourly" });
    await waitForSync(app, org, page.id);
    const updated = await client().datastores.updateText(datastore.id, {
      id: page.id,
      text: "Now plain text.",
    });
    expect(updated.status).toBe(200);
    const text = await waitForSync(app, org, page.id);
    expect(text).toMatchObject({ type: "text", syncSchedule: null, nextSyncAt: null });
    const patched = await client().datasources.update(page.id, { syncSchedule: "hourly" });
    expect(patched.status).toBe(400);
  });

  test("answers 404 for an unknown id and for another organization's datasource", async ({
    app,
    org,
    stranger,
    schedule,
  }) => {
    const { client, addPage } = schedule;
    const page = await addPage("/private", "Internal price list.", { syncSchedule: "daily" });
    const before = await getDatasource(app, org, page.id);

    const unknown = await client().datasources.update("no-such-datasource", {
      syncSchedule: "daily",
    });
    expect(unknown.status).toBe(404);
    expect(unknown.error.type).toBe("NOT_FOUND");

    const foreign = app.client(stranger.auth);
    for (const syncSchedule of ["hourly", null] as const) {
      const response = await foreign.datasources.update(page.id, { syncSchedule });
      expect(response.status).toBe(404);
      expect(response.error.type).toBe("NOT_FOUND");
    }
    expect((await foreign.datasources.get(page.id)).status).toBe(404);
    const after = await getDatasource(app, org, page.id);
    expect(after).toMatchObject({ syncSchedule: "daily", nextSyncAt: before.nextSyncAt });

    const anonymous = await app.client({}).datasources.update(page.id, { syncSchedule: null });
    expect(anonymous.status).toBe(401);
  });
});

describe("the scheduler", () => {
  test("is registered with pg-boss to run every minute", async ({ app }) => {
    const result = await app.database.db.execute(
      sql`select cron, timezone from pgboss.schedule where name = 'knowledge.sync-schedule'`,
    );
    expect(rowsOf(result)).toEqual([{ cron: "* * * * *", timezone: "UTC" }]);
  });

  test("re-syncs a due page once, moves its next time on, and re-embeds nothing unchanged", async ({
    app,
    org,
    web,
    schedule,
  }) => {
    const { embeddingCalls, addPage, row, chunkRows, makeDue, runScheduler, waitForNextSync } =
      schedule;
    const page = await addPage("/unchanged", "The warranty lasts two years on every kettle.", {
      syncSchedule: "hourly",
    });
    const first = await waitForSync(app, org, page.id);
    const chunksBefore = await chunkRows(page.id);
    expect(chunksBefore.length).toBeGreaterThan(0);
    const callsBefore = embeddingCalls("on every kettle");
    const generationBefore = (await row(page.id))!.generation;
    const requestsBefore = web.requests.filter((path) => path === "/unchanged").length;

    // Due a month ago: 720 hourly periods were missed, and one sync catches up.
    await makeDue(page.id);
    await runScheduler();
    const second = await waitForNextSync(page.id, first.lastSynch);
    expect(second.status).toBe("synched");
    expect(Date.parse(second.lastSynch!)).toBeGreaterThan(Date.parse(first.lastSynch!));
    expect(Date.parse(second.nextSyncAt!)).toBeGreaterThan(Date.parse(second.lastSynch!));
    expect(Date.parse(second.nextSyncAt!) - Date.parse(second.lastSynch!)).toBeLessThanOrEqual(
      HOUR_MS,
    );
    expect((await row(page.id))!.generation).toBe(generationBefore + 1);
    expect(web.requests.filter((path) => path === "/unchanged").length).toBe(requestsBefore + 1);

    // Fetched again, but the same content: no embedding call, the very same chunks.
    expect(embeddingCalls("on every kettle")).toBe(callsBefore);
    expect(await chunkRows(page.id)).toEqual(chunksBefore);

    // Not due any more: the next run leaves it alone.
    await runScheduler();
    expect((await row(page.id))!.generation).toBe(generationBefore + 1);
    expect((await getDatasource(app, org, page.id)).nextSyncAt).toBe(second.nextSyncAt);
  });

  test("re-embeds a page whose content changed", async ({ app, org, web, schedule }) => {
    const { embeddingCalls, addPage, chunkRows, makeDue, runScheduler, waitForNextSync, search } =
      schedule;
    const page = await addPage("/changing", "The shop opens at eight in the morning.", {
      syncSchedule: "daily",
    });
    const first = await waitForSync(app, org, page.id);
    const chunksBefore = await chunkRows(page.id);
    const callsBefore = embeddingCalls();

    web.routes.set(
      "/changing",
      htmlPage("Page /changing", "The shop now opens at seven thirty, with fresh croissants."),
    );
    await makeDue(page.id);
    await runScheduler();
    const second = await waitForNextSync(page.id, first.lastSynch);
    expect(second.status).toBe("synched");
    expect(embeddingCalls()).toBeGreaterThan(callsBefore);
    const chunksAfter = await chunkRows(page.id);
    expect(chunksAfter.map((chunk) => chunk.content_hash)).not.toEqual(
      chunksBefore.map((chunk) => chunk.content_hash),
    );
    const texts = (await search("when does the shop open croissants"))
      .filter((hit) => hit.datasource_id === page.id)
      .map((hit) => hit.text)
      .join(" ");
    expect(texts).toContain("seven thirty");
    expect(texts).not.toContain("eight in the morning");
  });

  test("does not sync a datasource whose schedule was removed or that was deleted", async ({
    app,
    org,
    schedule,
  }) => {
    const { client, addPage, row, makeDue, runScheduler } = schedule;
    const removed = await addPage("/removed", "Schedule to be removed.", {
      syncSchedule: "hourly",
    });
    const deleted = await addPage("/deleted", "Page to be deleted.", { syncSchedule: "hourly" });
    const synced = await waitForSync(app, org, removed.id);
    await waitForSync(app, org, deleted.id);
    const generation = (await row(removed.id))!.generation;

    await makeDue(removed.id);
    await makeDue(deleted.id);
    const patched = await client().datasources.update(removed.id, { syncSchedule: null });
    expect(patched.body).toMatchObject({ syncSchedule: null, nextSyncAt: null });
    expect((await client().datasources.delete(deleted.id)).status).toBe(200);

    await runScheduler();
    expect((await row(removed.id))!.generation).toBe(generation);
    expect(await getDatasource(app, org, removed.id)).toMatchObject({
      status: "synched",
      lastSynch: synced.lastSynch,
    });
    expect(await row(deleted.id)).toBeNull();
    const jobs = await app.database.db.execute(
      sql`select count(*)::int as count from pgboss.job
          where name = 'knowledge.ingest' and data->>'datasourceId' = ${deleted.id}
            and state < 'active'`,
    );
    expect(rowsOf<{ count: number }>(jobs)[0]!.count).toBe(0);
  });

  test("does not sync twice a datasource whose sync is still running", async ({
    app,
    org,
    web,
    datastore,
    schedule,
  }) => {
    const { client, row, makeDue, runScheduler } = schedule;
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    web.routes.set("/busy", {
      ...htmlPage("Busy", "A page that takes its time."),
      after: released,
    });
    const created = await client().datasources.create({
      datastoreId: datastore.id,
      type: "web_page",
      config: { source_url: `${web.base}/busy` },
      syncSchedule: "hourly",
    });
    expect(created.status).toBe(201);
    const id = created.body.id;
    await until(
      () => getDatasource(app, org, id),
      (found) => found.status === "running",
      "the sync to start",
    );
    const generation = (await row(id))!.generation;

    await makeDue(id);
    await runScheduler();
    // The running sync stands for this period: no new generation, and the next time moved on.
    expect((await row(id))!.generation).toBe(generation);
    const running = await getDatasource(app, org, id);
    expect(running.status).toBe("running");
    expect(Date.parse(running.nextSyncAt!)).toBeGreaterThan(Date.now());

    release();
    expect((await waitForSync(app, org, id)).status).toBe("synched");
    expect((await row(id))!.generation).toBe(generation);
  });

  test("keeps the schedule after a failed sync", async ({ app, org, web, schedule }) => {
    const { addPage, makeDue, runScheduler, waitForNextSync } = schedule;
    const page = await addPage("/flaky", "Sometimes down.", { syncSchedule: "daily" });
    const first = await waitForSync(app, org, page.id);
    expect(first.status).toBe("synched");

    web.routes.set("/flaky", { status: 503, body: "down for maintenance" });
    await makeDue(page.id);
    await runScheduler();
    const failed = await until(
      () => getDatasource(app, org, page.id),
      (found) => found.status === "error",
      "the failed sync",
    );
    expect(failed.errorMessage).toBe(`${web.base}/flaky answered HTTP 503`);
    expect(failed.syncSchedule).toBe("daily");
    expect(Date.parse(failed.nextSyncAt!)).toBeGreaterThan(Date.now());

    web.routes.set("/flaky", htmlPage("Page /flaky", "Back up and running."));
    await makeDue(page.id);
    await runScheduler();
    const recovered = await waitForNextSync(page.id, first.lastSynch);
    expect(recovered).toMatchObject({ status: "synched", errorMessage: null });
  });

  test("re-syncs a web_site with its pages, which follow the site's schedule", async ({
    app,
    org,
    web,
    datastore,
    schedule,
  }) => {
    const { client, makeDue, runScheduler, waitForNextSync, search } = schedule;
    web.routes.set("/site/map.xml", sitemap([`${web.base}/site/a`, `${web.base}/site/b`]));
    web.routes.set("/site/a", htmlPage("Alpha", "Alpha page about umbrellas."));
    web.routes.set("/site/b", htmlPage("Beta", "Beta page about raincoats."));
    const created = await client().datasources.create({
      datastoreId: datastore.id,
      type: "web_site",
      config: { sitemap: `${web.base}/site/map.xml` },
      syncSchedule: "weekly",
    });
    expect(created.status).toBe(201);
    expect(created.body.syncSchedule).toBe("weekly");
    const site = await waitForSync(app, org, created.body.id);
    expect(site.status).toBe("synched");
    const pagesOf = async () =>
      (await client().datastores.datasources(datastore.id)).body.filter(
        (item) => item.groupId === site.id,
      );
    const pages = await pagesOf();
    expect(pages).toHaveLength(2);
    for (const page of pages) {
      expect(page).toMatchObject({ syncSchedule: null, nextSyncAt: null });
      const patched = await client().datasources.update(page.id, { syncSchedule: "hourly" });
      expect(patched.status).toBe(400);
      expect(patched.error.error).toBe(
        "This page belongs to a web_site and is synced with it: set syncSchedule on the web_site",
      );
    }

    web.routes.set("/site/b", htmlPage("Beta", "Beta page about wellington boots."));
    await makeDue(site.id);
    await runScheduler();
    const again = await waitForNextSync(site.id, site.lastSynch);
    expect(again.status).toBe("synched");
    expect(Date.parse(again.nextSyncAt!)).toBeGreaterThan(Date.parse(again.lastSynch!));
    const texts = (await search("wellington boots raincoats")).map((hit) => hit.text).join(" ");
    expect(texts).toContain("wellington boots");
    expect(texts).not.toContain("raincoats");
  });
});
