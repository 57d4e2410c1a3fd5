import JSZip from "jszip";
import { describe, expect } from "vitest";
import { buildDocx, buildPptx, buildXlsx } from "../ingestion/loaders/ooxml-fixtures.ts";
import { buildPdf } from "../ingestion/loaders/pdf-fixture.ts";
import {
  addFile,
  createDatastore,
  type Datasource,
  type KnowledgeFixtures,
  knowledgeTest,
  type QueryResult,
  query,
  type UploadField,
  uploadFile,
  waitForSync,
} from "./knowledge-helpers.ts";

const UPLOAD_MAX_BYTES = 2 * 1024 * 1024;
const DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";
const PPTX = "application/vnd.openxmlformats-officedocument.presentationml.presentation";
const XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

const test = knowledgeTest({
  orgName: "Files Co",
  env: { UPLOAD_MAX_BYTES: String(UPLOAD_MAX_BYTES) },
});

async function ingest(
  { app, org, datastore }: KnowledgeFixtures,
  file: { fileName: string; contentType: string; content: Buffer | string },
) {
  const created = await addFile(app, org, datastore.id, file);
  return waitForSync(app, org, created.id);
}

async function topHit(
  { app, org, datastore }: KnowledgeFixtures,
  datasource: Datasource,
  text: string,
): Promise<QueryResult> {
  const response = await query(app, org, datastore.id, {
    query: text,
    topK: 3,
    filters: { datasource_ids: [datasource.id] },
  });
  expect(response.status).toBe(200);
  const [first] = response.body as QueryResult[];
  expect(first).toBeDefined();
  return first!;
}

describe("each accepted file type is loaded, split, embedded and searchable", () => {
  test("PDF, per page with page numbers", async ({ app, org, datastore }) => {
    const pdf = buildPdf([
      ["Chapter one covers onboarding."],
      ["Page two explains the refund window of 30 days."],
    ]);
    const synced = await ingest(
      { app, org, datastore },
      {
        fileName: "guide.pdf",
        contentType: "application/pdf",
        content: Buffer.from(pdf),
      },
    );
    expect(synced).toMatchObject({ status: "synched", config: { mime_type: "application/pdf" } });
    const hit = await topHit({ app, org, datastore }, synced, "refund window days");
    expect(hit.text).toContain("refund window");
    expect(hit.page).toBe(2);
    expect(hit.source).toBe("guide.pdf");
  });

  test("DOCX", async ({ app, org, datastore }) => {
    const synced = await ingest(
      { app, org, datastore },
      {
        fileName: "policy.docx",
        contentType: DOCX,
        content: Buffer.from(await buildDocx()),
      },
    );
    expect(synced.status).toBe("synched");
    expect(
      (await topHit({ app, org, datastore }, synced, "refunds issued fourteen days")).text,
    ).toContain("fourteen days");
  });

  test("PPTX, in slide order with slide numbers as pages", async ({ app, org, datastore }) => {
    const pptx = await buildPptx([
      { title: "Roadmap", body: ["Quarter one ships the mobile app."] },
      { title: "Pricing", body: ["The team plan costs 99 euros."] },
    ]);
    const synced = await ingest(
      { app, org, datastore },
      {
        fileName: "deck.pptx",
        contentType: PPTX,
        content: Buffer.from(pptx),
      },
    );
    expect(synced.status).toBe("synched");
    const hit = await topHit({ app, org, datastore }, synced, "team plan euros");
    expect(hit.text).toContain("99 euros");
    expect(hit.page).toBe(2);
  });

  test("XLSX, rows kept with their header", async ({ app, org, datastore }) => {
    const synced = await ingest(
      { app, org, datastore },
      {
        fileName: "crm.xlsx",
        contentType: XLSX,
        content: Buffer.from(await buildXlsx()),
      },
    );
    expect(synced.status).toBe("synched");
    const hit = await topHit({ app, org, datastore }, synced, "alice email");
    expect(hit.text).toContain("alice@example.com");
    expect(hit.text).toContain("Email");
  });

  test("CSV", async ({ app, org, datastore }) => {
    const csv = "sku,product,price\nK-1,Kettle,35\nT-9,Toaster,49\n";
    const synced = await ingest(
      { app, org, datastore },
      { fileName: "prices.csv", contentType: "text/csv", content: csv },
    );
    expect(synced).toMatchObject({ status: "synched", config: { mime_type: "text/csv" } });
    expect((await topHit({ app, org, datastore }, synced, "toaster price")).text).toContain(
      "Toaster",
    );
  });

  test("JSON", async ({ app, org, datastore }) => {
    const json = JSON.stringify({
      faq: [{ q: "Do you ship to Iceland?", a: "Yes, within 5 days." }],
    });
    const synced = await ingest(
      { app, org, datastore },
      {
        fileName: "faq.json",
        contentType: "application/json",
        content: json,
      },
    );
    expect(synced).toMatchObject({ status: "synched", config: { mime_type: "application/json" } });
    expect((await topHit({ app, org, datastore }, synced, "ship Iceland")).text).toContain(
      "Iceland",
    );
  });

  test("Markdown, with the heading path kept on each chunk", async ({ app, org, datastore }) => {
    const markdown = "# Garden\n\n## Roses\n\nPrune roses in late winter.\n";
    const synced = await ingest(
      { app, org, datastore },
      {
        fileName: "garden.md",
        contentType: "text/markdown",
        content: markdown,
      },
    );
    expect(synced).toMatchObject({ status: "synched", config: { mime_type: "text/markdown" } });
    expect((await topHit({ app, org, datastore }, synced, "prune roses")).text).toContain(
      "Garden > Roses",
    );
  });

  test("plain text", async ({ app, org, datastore }) => {
    const synced = await ingest(
      { app, org, datastore },
      {
        fileName: "note.txt",
        contentType: "text/plain",
        content: "The wifi password is on the fridge.",
      },
    );
    expect(synced).toMatchObject({ status: "synched", config: { mime_type: "text/plain" } });
    expect((await topHit({ app, org, datastore }, synced, "wifi password")).text).toContain(
      "fridge",
    );
  });
});

describe("upload rules", () => {
  test("reads a PDF sent as text/plain as a PDF (the content decides)", async ({
    app,
    org,
    datastore,
  }) => {
    const pdf = buildPdf([["Disguised PDF about lighthouse keepers."]]);
    const synced = await ingest(
      { app, org, datastore },
      {
        fileName: "notes.txt",
        contentType: "text/plain",
        content: Buffer.from(pdf),
      },
    );
    expect(synced).toMatchObject({ status: "synched", config: { mime_type: "application/pdf" } });
    expect((await topHit({ app, org, datastore }, synced, "lighthouse keepers")).page).toBe(1);
  });

  test("refuses an executable sent as text/plain with 400 and stores nothing", async ({
    app,
    org,
  }) => {
    const elf = Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1]), Buffer.alloc(64)]);
    const store = await createDatastore(app, org);
    const response = await uploadFile(app, org, store.id, {
      fileName: "tool.txt",
      contentType: "text/plain",
      content: elf,
    });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ type: "INVALID_REQUEST" });
    expect(response.error.error).toContain("executable");
    const listed = await app.client(org.auth).datastores.datasources(store.id);
    expect(listed.body).toEqual([]);
  });

  test("answers 413 above UPLOAD_MAX_BYTES", async ({ app, org, datastore }) => {
    const response = await uploadFile(app, org, datastore.id, {
      fileName: "big.txt",
      contentType: "text/plain",
      content: "a".repeat(UPLOAD_MAX_BYTES + 1),
    });
    expect(response.status).toBe(413);
    expect(response.body).toMatchObject({ type: "PAYLOAD_TOO_LARGE" });
  });

  test("uses fileName and custom_id from the form", async ({ app, org, datastore }) => {
    const created = await addFile(
      app,
      org,
      datastore.id,
      { fileName: "upload.md", contentType: "text/markdown", content: "Quokkas smile a lot." },
      [
        { name: "fileName", value: "Quokka facts" },
        { name: "custom_id", value: "customer-42" },
      ],
    );
    expect(created).toMatchObject({
      name: "Quokka facts",
      customId: "customer-42",
      type: "file",
      groupId: null,
    });
    const synced = await waitForSync(app, org, created.id);
    const hit = await topHit({ app, org, datastore }, synced, "quokkas smile");
    expect(hit).toMatchObject({ custom_id: "customer-42", datasource_name: "Quokka facts" });
  });

  test.for<[string, UploadField[], string | undefined, string]>([
    ["no file", [{ name: "type", value: "file" }], undefined, "body.file"],
    ["type other than file", [{ name: "type", value: "web_page" }], "x", "body.type"],
    ["no datastoreId", [{ name: "type", value: "file" }], "x", "body.datastoreId"],
  ])("refuses a form with %s (400)", async ([, fields, content, path], { app, org, datastore }) => {
    const { multipartBody } = await import("./knowledge-helpers.ts");
    const withStore =
      path === "body.datastoreId"
        ? fields
        : [...fields, { name: "datastoreId", value: datastore.id }];
    const { payload, headers } = multipartBody(
      withStore,
      content === undefined ? undefined : { fileName: "a.txt", contentType: "text/plain", content },
    );
    const response = await app.client().request({
      method: "POST",
      url: "/api/datasources",
      headers: { ...org.auth, ...headers },
      payload,
    });
    expect(response.status).toBe(400);
    expect(response.body.details.map((detail: { path: string }) => detail.path)).toContain(path);
  });

  test("answers 404 for a datastore that does not exist", async ({ app, org }) => {
    const response = await uploadFile(app, org, "no-such-datastore", {
      fileName: "a.txt",
      contentType: "text/plain",
      content: "x",
    });
    expect(response.status).toBe(404);
  });
});

describe("hostile documents end in error while the server keeps serving", () => {
  test("a zip bomb disguised as a DOCX", async ({ app, org, datastore }) => {
    const zip = await JSZip.loadAsync(await buildDocx());
    zip.file("word/media/padding.bin", new Uint8Array(300 * 1024 * 1024), {
      compression: "DEFLATE",
      compressionOptions: { level: 9 },
    });
    const bomb = Buffer.from(
      await zip.generateAsync({ type: "uint8array", compression: "DEFLATE" }),
    );
    expect(bomb.byteLength).toBeLessThan(UPLOAD_MAX_BYTES);
    const synced = await ingest(
      { app, org, datastore },
      { fileName: "bomb.docx", contentType: DOCX, content: bomb },
    );
    expect(synced.status).toBe("error");
    expect(synced.errorMessage).toMatch(/uncompress|expand|limit|large/i);
    expect(synced.chunkCount).toBe(0);

    const health = await app.client().health();
    expect(health.status).toBe(200);
  }, 60_000);

  test("a corrupt PDF", async ({ app, org, datastore }) => {
    const pdf = Buffer.from(buildPdf([["Fine text"]]));
    const corrupt = Buffer.concat([pdf.subarray(0, 40), Buffer.from("garbage".repeat(50))]);
    const synced = await ingest(
      { app, org, datastore },
      {
        fileName: "broken.pdf",
        contentType: "application/pdf",
        content: corrupt,
      },
    );
    expect(synced.status).toBe("error");
    expect(synced.errorMessage).toMatch(/pdf/i);

    const after = await ingest(
      { app, org, datastore },
      {
        fileName: "after.txt",
        contentType: "text/plain",
        content: "Still indexing after the bad PDF.",
      },
    );
    expect(after.status).toBe("synched");
  });
});
