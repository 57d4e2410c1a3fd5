import { describe, expect } from "vitest";
import {
  addFile,
  createDatastore,
  type Datasource,
  knowledgeTest,
  query,
  uploadFile,
  waitForSync,
} from "./knowledge-helpers.ts";

// Another organization's datastores and datasources answer 404, as if they did not exist: the
// caller learns nothing about ids it does not own (docs/knowledge.md).

const test = knowledgeTest({ orgName: "Owner", datastore: { name: "Secret" } })
  .extend("owner", { scope: "file" }, ({ org }) => org)
  .extend("intruder", { scope: "file" }, ({ app }) => app.createOrganization("Intruder"))
  .extend("privateStore", { scope: "file" }, ({ datastore }) => datastore)
  .extend("publicStore", { scope: "file" }, async ({ app, owner }) => {
    const store = await createDatastore(app, owner, { name: "Public FAQ", visibility: "public" });
    const publicFile = await addFile(app, owner, store.id, {
      fileName: "faq.md",
      contentType: "text/markdown",
      content: "Opening hours are nine to five.",
    });
    await waitForSync(app, owner, publicFile.id);
    return store;
  })
  .extend("datasource", { scope: "file" }, async ({ app, owner, privateStore }) => {
    const created = await addFile(app, owner, privateStore.id, {
      fileName: "secret.md",
      contentType: "text/markdown",
      content: "The vault code is 4711.",
    });
    await waitForSync(app, owner, created.id);
    return created;
  });

describe("authentication", () => {
  const endpoints = (privateStore: { id: string }, datasource: Datasource) =>
    [
      ["POST", "/api/datastores", { name: "x" }],
      ["GET", "/api/datastores", undefined],
      ["GET", `/api/datastores/${privateStore.id}`, undefined],
      ["PATCH", `/api/datastores/${privateStore.id}`, { name: "x" }],
      ["DELETE", `/api/datastores/${privateStore.id}`, undefined],
      ["GET", `/api/datastores/${privateStore.id}/datasources`, undefined],
      ["POST", "/api/datasources", { datastoreId: privateStore.id, type: "web_page", config: {} }],
      ["GET", `/api/datasources/${datasource.id}`, undefined],
      ["DELETE", `/api/datasources/${datasource.id}`, undefined],
      ["POST", `/api/datasources/${datasource.id}/synch`, undefined],
      ["POST", `/api/datastores/update/${privateStore.id}`, { id: datasource.id, text: "x" }],
    ] as const;

  test("every management endpoint needs a valid key (401 without, 401 with a bad one)", async ({
    app,
    owner,
    privateStore,
    datasource,
  }) => {
    for (const [method, url, payload] of endpoints(privateStore, datasource)) {
      for (const headers of [{}, { authorization: "Bearer not-a-key" }]) {
        const response = await app.client().request({
          method,
          url,
          headers,
          ...(payload ? { payload } : {}),
        });
        expect(response.status, `${method} ${url}`).toBe(401);
        expect(response.body.type).toBe("UNAUTHORIZED");
      }
    }
    const stillThere = await app.client(owner.auth).datasources.get(datasource.id);
    expect(stillThere.body.status).toBe("synched");
  });

  test("a private datastore cannot be queried without a key", async ({ app, privateStore }) => {
    const response = await query(app, null, privateStore.id, { query: "vault code" });
    expect(response.status).toBe(401);
  });

  test("a public datastore can be queried without a key, but not with a bad one", async ({
    app,
    publicStore,
  }) => {
    const anonymous = await query(app, null, publicStore.id, { query: "opening hours" });
    expect(anonymous.status).toBe(200);
    expect(anonymous.body[0]!.text).toContain("nine to five");
    const badKey = await app.client().request({
      method: "POST",
      url: `/api/datastores/${publicStore.id}/query`,
      headers: { authorization: "Bearer wrong" },
      payload: { query: "opening hours" },
    });
    expect(badKey.status).toBe(401);
  });
});

describe("cross-organization access is refused with 404", () => {
  test("datastores of another organization", async ({
    app,
    owner,
    intruder,
    privateStore,
    publicStore,
    datasource,
  }) => {
    for (const [method, url, payload] of [
      ["GET", `/api/datastores/${privateStore.id}`, undefined],
      ["PATCH", `/api/datastores/${privateStore.id}`, { name: "Mine now" }],
      ["DELETE", `/api/datastores/${privateStore.id}`, undefined],
      ["GET", `/api/datastores/${privateStore.id}/datasources`, undefined],
      ["POST", `/api/datastores/${privateStore.id}/query`, { query: "vault code" }],
      ["POST", `/api/datastores/update/${privateStore.id}`, { id: datasource.id, text: "pwned" }],
      ["DELETE", `/api/datastores/${publicStore.id}`, undefined],
    ] as const) {
      const response = await app.client().request({
        method,
        url,
        headers: intruder.auth,
        ...(payload ? { payload } : {}),
      });
      expect(response.status, `${method} ${url}`).toBe(404);
    }
    const list = await app.client(intruder.auth).datastores.list();
    expect(list.body).toEqual([]);
    const mine = await app.client(owner.auth).datastores.get(privateStore.id);
    expect(mine.body.name).toBe("Secret");
  });

  test("datasources of another organization", async ({
    app,
    owner,
    intruder,
    privateStore,
    datasource,
  }) => {
    for (const [method, url] of [
      ["GET", `/api/datasources/${datasource.id}`],
      ["DELETE", `/api/datasources/${datasource.id}`],
      ["POST", `/api/datasources/${datasource.id}/synch`],
    ] as const) {
      const response = await app.client().request({ method, url, headers: intruder.auth });
      expect(response.status, `${method} ${url}`).toBe(404);
    }
    const upload = await uploadFile(app, intruder, privateStore.id, {
      fileName: "x.txt",
      contentType: "text/plain",
      content: "planted",
    });
    expect(upload.status).toBe(404);
    const web = await app.client(intruder.auth).datasources.create({
      datastoreId: privateStore.id,
      type: "web_page",
      config: { source_url: "http://127.0.0.1:9/" },
    });
    expect(web.status).toBe(404);
    const intact = await query(app, owner, privateStore.id, { query: "vault code" });
    expect(intact.body[0]!.text).toContain("4711");
  });

  test("another organization may query a public datastore, filters and all", async ({
    app,
    intruder,
    publicStore,
  }) => {
    const response = await query(app, intruder, publicStore.id, {
      query: "opening hours",
      topK: 1,
    });
    expect(response.status).toBe(200);
    expect(response.body).toHaveLength(1);
  });
});
