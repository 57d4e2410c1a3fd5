import { sql } from "drizzle-orm";
import { describe, expect } from "vitest";
import { rowsOf } from "../../src/db/client.ts";
import { startTestApp, type TestApp } from "../harness/app.ts";
import {
  addFile,
  createDatastore,
  getDatasource,
  knowledgeTest,
  type QueryResult,
  query,
  waitForSync,
} from "./knowledge-helpers.ts";

// Two processes on one database: an API without workers, where jobs stay queued for the test to
// run or break by hand, and, per test, a worker with a short job lease.
const test = knowledgeTest({ role: "api", orgName: "Sync runs" });

async function generationOf(app: TestApp, datasourceId: string): Promise<number> {
  const result = await app.database.db.execute(
    sql`select sync_generation as generation from datasources where id = ${datasourceId}`,
  );
  return rowsOf<{ generation: number }>(result)[0]!.generation;
}

const page = (title: string, text: string) =>
  `<html><head><title>${title}</title></head><body><main><h1>${title}</h1>` +
  `<p>${text}</p></main></body></html>`;

describe("a sync run that was taken over", () => {
  test("writes nothing once a newer run of the same job holds the datasource", async ({
    app,
    org,
    web,
  }) => {
    const store = await createDatastore(app, org);
    let releaseFirst = () => {};
    web.routes.set("/taken-over", {
      body: page("First run", "Text the first run fetched, late, about pelicans."),
      after: new Promise<void>((resolve) => {
        releaseFirst = resolve;
      }),
    });
    const created = await app.client(org.auth).datasources.create({
      datastoreId: store.id,
      type: "web_page",
      config: { source_url: `${web.base}/taken-over` },
    });
    expect(created.status).toBe(201);
    const datasourceId = created.body.id;
    const job = {
      organizationId: org.id,
      datasourceId,
      generation: await generationOf(app, datasourceId),
    };
    const { knowledge } = app.runtime.services;

    // The first run claims the datasource and waits for the page, as a stalled process would.
    const first = knowledge.runSync(job);
    while (!web.requests.includes("/taken-over")) await new Promise((r) => setTimeout(r, 20));
    // Its job went to another run, which fetches the page as it is now and finishes.
    web.routes.set("/taken-over", {
      body: page("Second run", "Text the second run fetched, about cormorants."),
    });
    await knowledge.runSync(job);
    expect(await getDatasource(app, org, datasourceId)).toMatchObject({ status: "synched" });

    releaseFirst();
    await first;
    const ended = await getDatasource(app, org, datasourceId);
    expect(ended.status).toBe("synched");
    const found: QueryResult[] = (
      await query(app, org, store.id, { query: "pelicans cormorants", topK: 10 })
    ).body;
    expect(found.map((hit) => hit.text).join(" ")).toContain("cormorants");
    expect(found.map((hit) => hit.text).join(" ")).not.toContain("pelicans");
    expect(found).toHaveLength(ended.chunkCount);
  });
});

describe("a sync whose every run died", () => {
  test("ends in error, through the ingestion job's dead letter, instead of staying pending", async ({
    app,
    org,
    onTestFinished,
  }) => {
    const store = await createDatastore(app, org);
    const created = await addFile(app, org, store.id, {
      fileName: "never.md",
      contentType: "text/markdown",
      content: "# Never synched\n\nEvery worker that took this died.",
    });
    expect(created.status).toBe("pending");
    // What the last allowed run leaves when its process dies before claiming the datasource.
    await app.database.db.execute(
      sql`update pgboss.job set state = 'active', started_on = now() - interval '1 minute',
            expire_in = interval '2 seconds', retry_count = retry_limit
          where name = 'knowledge.ingest' and data->>'datasourceId' = ${created.id}`,
    );
    const worker = await startTestApp({
      role: "all",
      database: app.database,
      env: { JOB_LEASE_SECONDS: "2" },
    });
    onTestFinished(() => worker.close());
    const ended = await waitForSync(app, org, created.id, 15_000);
    expect(ended.status).toBe("error");
    expect(ended.errorMessage).toMatch(/^Ingestion did not finish: every attempt stopped/);
  });
});
