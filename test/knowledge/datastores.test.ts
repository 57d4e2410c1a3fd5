import { sql } from "drizzle-orm";
import { describe, expect } from "vitest";
import { rowsOf } from "../../src/db/client.ts";
import {
  addFile,
  createDatastore,
  knowledgeTest,
  query,
  waitForSync,
} from "./knowledge-helpers.ts";

const test = knowledgeTest({ orgName: "Datastore Co" });

describe("datastores", () => {
  test("creates one private by default on the native index, with the local embedder", async ({
    app,
    org,
  }) => {
    const response = await app
      .client(org.auth)
      .datastores.create({ name: "Docs", description: "Product docs" });
    expect(response.status).toBe(201);
    const body = response.body;
    expect(body).toMatchObject({
      name: "Docs",
      description: "Product docs",
      type: "pgvector",
      visibility: "private",
      embeddingModel: "local:hash-ngram-v1",
      dimensions: 512,
    });
    expect(typeof body.id).toBe("string");

    const fetched = await app.client(org.auth).datastores.get(body.id);
    expect(fetched.status).toBe(200);
    expect(fetched.body).toEqual(body);
  });

  test("accepts qdrant (the spec's value) as an alias and stores what the index really is", async ({
    app,
    org,
  }) => {
    const store = await createDatastore(app, org, { type: "qdrant", visibility: "public" });
    expect(store).toMatchObject({ type: "pgvector", visibility: "public" });
  });

  test("refuses a type it cannot serve, naming the supported ones", async ({ app, org }) => {
    const response = await app.client(org.auth).datastores.create({ name: "X", type: "pinecone" });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ type: "INVALID_REQUEST" });
    expect(response.error.error).toContain("pgvector");
    expect(response.error.error).toContain("qdrant");
  });

  test("lists the organization's datastores in creation order", async ({ app }) => {
    const other = await app.createOrganization("Other");
    const mine = await createDatastore(app, other, { name: "First" });
    const second = await createDatastore(app, other, { name: "Second" });
    const response = await app.client(other.auth).datastores.list();
    expect(response.status).toBe(200);
    expect(response.body.map((store: { id: string }) => store.id)).toEqual([mine.id, second.id]);
  });

  test("PATCH changes name, description and type and answers the spec's Datastore object", async ({
    app,
    org,
  }) => {
    const store = await createDatastore(app, org, { name: "Before" });
    const response = await app
      .client(org.auth)
      .datastores.update(store.id, { name: "After", description: "New words", type: "qdrant" });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      id: store.id,
      name: "After",
      description: "New words",
      type: "pgvector",
      visibility: "private",
    });
    const fetched = await app.client(org.auth).datastores.get(store.id);
    expect(fetched.body).toMatchObject({ name: "After", description: "New words" });
  });

  test("PATCH with an unsupported type changes nothing", async ({ app, org }) => {
    const store = await createDatastore(app, org, { name: "Stable" });
    const response = await app
      .client(org.auth)
      .datastores.update(store.id, { name: "Changed", type: "weaviate" });
    expect(response.status).toBe(400);
    const fetched = await app.client(org.auth).datastores.get(store.id);
    expect(fetched.body.name).toBe("Stable");
  });

  test("DELETE removes the datastore with its datasources and chunks", async ({ app, org }) => {
    const store = await createDatastore(app, org, { name: "Doomed" });
    const datasource = await addFile(app, org, store.id, {
      fileName: "notes.md",
      contentType: "text/markdown",
      content: "# Notes\n\nThe blue kettle boils water in ninety seconds.",
    });
    expect((await waitForSync(app, org, datasource.id)).status).toBe("synched");

    const response = await app.client(org.auth).datastores.delete(store.id);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ id: store.id, name: "Doomed" });

    const gone = await app.client(org.auth).datastores.get(store.id);
    expect(gone.status).toBe(404);
    const datasourceGone = await app.client(org.auth).datasources.get(datasource.id);
    expect(datasourceGone.status).toBe(404);
    const remaining = await app.database.db.execute(
      sql`select count(*)::int as n from knowledge_chunks where datastore_id = ${store.id}`,
    );
    expect(rowsOf<{ n: number }>(remaining)[0]!.n).toBe(0);
  });
});

describe("datastore query", () => {
  test("returns the best fragments with the spec's fields and a 0..1 score", async ({
    app,
    org,
  }) => {
    const store = await createDatastore(app, org, { name: "Kettles" });
    const datasource = await addFile(
      app,
      org,
      store.id,
      {
        fileName: "kettle.md",
        contentType: "text/markdown",
        content:
          "# Kettle\n\nThe blue kettle boils water in ninety seconds.\n\n# Toaster\n\nThe toaster browns bread evenly on both sides.",
      },
      [{ name: "custom_id", value: "tenant-7" }],
    );
    expect(await waitForSync(app, org, datasource.id)).toMatchObject({ status: "synched" });

    const response = await query(app, org, store.id, { query: "how fast does the kettle boil?" });
    expect(response.status).toBe(200);
    const results = response.body;
    expect(results.length).toBeGreaterThan(0);
    expect(results[0]).toMatchObject({
      source: "kettle.md",
      datasource_id: datasource.id,
      datasource_name: "kettle.md",
      custom_id: "tenant-7",
    });
    expect(results[0]!.text).toContain("ninety seconds");
    for (const result of results) {
      expect(result.score).toBeGreaterThan(0);
      expect(result.score).toBeLessThanOrEqual(1);
    }
  });
});
