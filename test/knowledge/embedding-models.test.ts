import { sql } from "drizzle-orm";
import { describe, expect } from "vitest";
import { rowsOf } from "../../src/db/client.ts";
import type { FakeOpenAI } from "../fakes/openai-server.ts";
import type { TestApp } from "../harness/app.ts";
import {
  addFile,
  createDatastore,
  knowledgeTest,
  query,
  waitForSync,
} from "./knowledge-helpers.ts";

// EMBEDDINGS_MODEL points new datastores at an AI SDK embedding model, here a fake OpenAI
// server on 127.0.0.1 speaking the real wire format.

const test = knowledgeTest({
  offline: false,
  orgName: "Embeddings Co",
  env: { EMBEDDINGS_MODEL: "openai:text-embedding-3-small", EMBEDDINGS_DIMENSIONS: "64" },
});

const embeddingRequests = (fake: FakeOpenAI) =>
  fake.requests.filter((request) => request.path === "/v1/embeddings");

async function storedDimensions(app: TestApp, datasourceId: string): Promise<number[]> {
  const result = await app.database.db.execute(
    sql`select distinct dimensions, array_length(embedding, 1) as length from knowledge_chunks where datasource_id = ${datasourceId}`,
  );
  return rowsOf<{ dimensions: number; length: number }>(result).flatMap((row) => [
    row.dimensions,
    row.length,
  ]);
}

describe("an AI SDK embedding model", () => {
  test("embeds chunks and queries through the provider, recording the cost as consumption", async ({
    app,
    org,
    fake,
  }) => {
    const store = await createDatastore(app, org);
    expect(store).toMatchObject({
      embeddingModel: "openai:text-embedding-3-small",
      dimensions: 64,
    });
    const created = await addFile(app, org, store.id, {
      fileName: "otters.md",
      contentType: "text/markdown",
      content: "Sea otters hold hands while they sleep.",
    });
    expect((await waitForSync(app, org, created.id)).status).toBe("synched");
    expect(await storedDimensions(app, created.id)).toEqual([64, 64]);
    const ingestCall = embeddingRequests(fake).at(-1)!;
    expect(ingestCall.body).toMatchObject({ model: "text-embedding-3-small", dimensions: 64 });
    expect(JSON.stringify(ingestCall.body?.input)).toContain("Sea otters");

    const response = await query(app, org, store.id, { query: "otters sleep" });
    expect(response.status).toBe(200);
    expect(response.body[0]!.text).toContain("hold hands");
    expect(JSON.stringify(embeddingRequests(fake).at(-1)!.body?.input)).toContain("otters sleep");

    const events = await app.client(org.auth).consumptionEvents.list({ feature: "embeddings" });
    expect(events.status).toBe(200);
    const data = events.body.data as {
      provider: string;
      modelName: string;
      inputTokens: number;
    }[];
    expect(data.length).toBe(2);
    expect(data[0]).toMatchObject({ provider: "openai", modelName: "text-embedding-3-small" });
    expect(data.every((event) => event.inputTokens > 0)).toBe(true);
  });

  test("ends a sync in error with the provider's status when the model keeps failing", async ({
    app,
    org,
    fake,
  }) => {
    const store = await createDatastore(app, org);
    const failure = { status: 500, retryAfterMs: 10 };
    fake.scriptEmbeddings(failure, failure, failure);
    const created = await addFile(app, org, store.id, {
      fileName: "fail.md",
      contentType: "text/markdown",
      content: "This text never gets a vector.",
    });
    const ended = await waitForSync(app, org, created.id);
    expect(ended.status).toBe("error");
    expect(ended.errorMessage).toContain("text-embedding-3-small failed (HTTP 500");
  });

  test("changing a datastore's embedder re-embeds its datasources", async ({ app, org }) => {
    const store = await createDatastore(app, org);
    const created = await addFile(app, org, store.id, {
      fileName: "moles.md",
      contentType: "text/markdown",
      content: "Star-nosed moles smell underwater.",
    });
    await waitForSync(app, org, created.id);
    expect(await storedDimensions(app, created.id)).toEqual([64, 64]);

    const patched = await app
      .client(org.auth)
      .datastores.update(store.id, { embeddingModel: "local:hash-ngram-v1" });
    expect(patched.status).toBe(200);
    const synced = await waitForSync(app, org, created.id);
    expect(synced.status).toBe("synched");
    expect(await storedDimensions(app, created.id)).toEqual([512, 512]);
    const response = await query(app, org, store.id, { query: "moles smell", mode: "vector" });
    expect(response.body[0]!.text).toContain("Star-nosed");
  });

  test("refuses an embedding model it cannot resolve", async ({ app, org }) => {
    const response = await app
      .client(org.auth)
      .datastores.create({ name: "x", embeddingModel: "openai:mystery-model" });
    expect(response.status).toBe(400);
    expect(response.error.error).toContain("dimensions");
  });
});
