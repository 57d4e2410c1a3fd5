import type { z } from "zod";
import type { createDatastoreBody } from "../../src/domain/knowledge/datastore-request.ts";
import type { TestApp, TestOrganization } from "../harness/app.ts";

type DatastoreFields = Partial<z.input<typeof createDatastoreBody>>;

import { type FakeResponse, startFakeWebSite } from "../fakes/web-site.ts";
import { type Datasource, unchecked } from "../harness/client.ts";
import { type AppTestOptions, appTest } from "../harness/fixtures.ts";

export type { Datasource };

export type QueryResult = {
  text: string;
  score: number;
  source: string;
  datasource_id: string;
  datasource_name: string;
  custom_id?: string;
  page?: number;
  chunk_id: string;
};

/** The fixtures of `knowledgeTest` that the helpers of a file take. */
export type KnowledgeFixtures = { app: TestApp; org: TestOrganization; datastore: { id: string } };

export type KnowledgeTestOptions = AppTestOptions & {
  /** Fields of the `datastore` fixture, over the name Help centre. */
  datastore?: DatastoreFields;
  /** The routes the `web` fixture serves from the start. */
  web?: Record<string, FakeResponse>;
};

/**
 * The `test` of a file about knowledge: `appTest` without a model provider key (`offline`) and
 * with an `org` without credits, as an organization the admin API creates, unless the options
 * say otherwise; and, each set up once per file when asked for,
 * - `datastore`: a datastore of `org`;
 * - `web`: a fake web site on 127.0.0.1, serving `options.web`.
 */
export function knowledgeTest(options: KnowledgeTestOptions = {}) {
  return appTest({ offline: true, funded: false, ...options })
    .extend("datastore", { scope: "file" }, ({ app, org }) =>
      createDatastore(app, org, options.datastore),
    )
    .extend("web", { scope: "file" }, async ({ service }, { onCleanup }) => {
      // Started after the app, so closed before it.
      void service;
      const web = await startFakeWebSite(options.web);
      onCleanup(() => web.close());
      return web;
    });
}

const FINAL = new Set(["synched", "error", "usage_limit_reached"]);

export async function createDatastore(
  app: TestApp,
  org: TestOrganization,
  body: DatastoreFields = {},
) {
  const response = await app.client(org.auth).datastores.create({ name: "Help centre", ...body });
  if (response.status !== 201) throw new Error(`createDatastore: ${response.text}`);
  return response.body;
}

export type UploadField = { name: string; value: string };

/** A multipart/form-data body built by hand, so tests control every byte and header. */
export function multipartBody(
  fields: UploadField[],
  file?: { field?: string; fileName: string; contentType: string; content: Buffer | string },
): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----agentdesk-test-${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const field of fields) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${field.name}"\r\n\r\n${field.value}\r\n`,
      ),
    );
  }
  if (file) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.field ?? "file"}"; filename="${file.fileName}"\r\nContent-Type: ${file.contentType}\r\n\r\n`,
      ),
      Buffer.isBuffer(file.content) ? file.content : Buffer.from(file.content),
      Buffer.from("\r\n"),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(parts),
    headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
  };
}

export async function uploadFile(
  app: TestApp,
  org: TestOrganization,
  datastoreId: string,
  file: { fileName: string; contentType: string; content: Buffer | string },
  extra: UploadField[] = [],
) {
  const { payload, headers } = multipartBody(
    [{ name: "type", value: "file" }, { name: "datastoreId", value: datastoreId }, ...extra],
    file,
  );
  return app.client(org.auth).datasources.upload({ payload, headers });
}

/** Uploads a file and returns the created datasource (status 201 required). */
export async function addFile(
  app: TestApp,
  org: TestOrganization,
  datastoreId: string,
  file: { fileName: string; contentType: string; content: Buffer | string },
  extra: UploadField[] = [],
): Promise<Datasource> {
  const response = await uploadFile(app, org, datastoreId, file, extra);
  if (response.status !== 201) throw new Error(`upload: ${response.status} ${response.text}`);
  return response.body;
}

export async function getDatasource(app: TestApp, org: TestOrganization, id: string) {
  const response = await app.client(org.auth).datasources.get(id);
  if (response.status !== 200) throw new Error(`get datasource: ${response.text}`);
  return response.body;
}

/** Polls GET /api/datasources/{id} until the sync ends (synched, error, usage limit). */
export async function waitForSync(
  app: TestApp,
  org: TestOrganization,
  id: string,
  timeoutMs = 20_000,
): Promise<Datasource> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const datasource = await getDatasource(app, org, id);
    if (FINAL.has(datasource.status)) return datasource;
    if (Date.now() > deadline) {
      throw new Error(`datasource ${id} still ${datasource.status} after ${timeoutMs} ms`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export async function query(
  app: TestApp,
  org: TestOrganization | null,
  datastoreId: string,
  body: Record<string, unknown>,
) {
  return app.client(org ? org.auth : {}).datastores.query(datastoreId, unchecked(body));
}
