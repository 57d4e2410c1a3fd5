import multipart from "@fastify/multipart";
import { z } from "zod";
import {
  datasourceResponse,
  fileFormFields,
  textUpdateBody,
  updateDatasourceBody,
  webDatasourceBody,
  webDatasourceInput,
} from "../../../domain/knowledge/datasource-request.ts";
import type { DatasourceService } from "../../../domain/knowledge/datasource-service.ts";
import { invalid } from "../../../lib/errors.ts";
import type { App } from "../../app-types.ts";
import { callerOf } from "../../plugins/auth.ts";
import { datastoreParams } from "../datastores/datastore-schemas.ts";
import { readFileForm } from "./datasource-multipart.ts";
import { datasourceParams, datastoreIdParams } from "./datasource-schemas.ts";

export type DatasourceRouteDeps = { knowledge: { datasources: DatasourceService } };

/** UPLOAD_MAX_BYTES: a bigger file is refused with 413. */
export type DatasourceSettings = { uploadMaxBytes: number };

/** Datasources: the spec's create (multipart file or JSON web source), delete and deprecated update. */
export function registerDatasourceRoutes(
  app: App,
  deps: DatasourceRouteDeps,
  settings: DatasourceSettings,
): void {
  const { datasources } = deps.knowledge;
  app.register(async (scope: App) => {
    // Multipart is parsed only here, with the upload cap; the rest of the API stays JSON.
    await scope.register(multipart, {
      limits: { fileSize: settings.uploadMaxBytes, files: 1 },
      throwFileSizeLimit: true,
    });

    scope.post(
      "/api/datasources",
      {
        config: { auth: "key", permission: "knowledge:write" },
        schema: {
          operationId: "createDatasource",
          tags: ["knowledge"],
          summary:
            "Create a datasource: a file (multipart/form-data) or a web page / web site (JSON)",
          description:
            "multipart/form-data fields: file (required), type=file, datastoreId, fileName, custom_id. " +
            "JSON: {datastoreId, type: web_page|web_site, name, config: {source_url} | {sitemap, source_url}, " +
            "syncSchedule: hourly|daily|weekly|null}.",
          bodies: {
            "multipart/form-data": fileFormFields.extend({
              file: z.file().describe("The document to index"),
            }),
            "application/json": webDatasourceBody,
          },
          response: { 201: datasourceResponse },
          errors: {
            404: "No datastore with this datastoreId in the organization",
            413: "The file is larger than UPLOAD_MAX_BYTES",
          },
        },
      },
      async (request, reply) => {
        const context = callerOf(request);
        const created = request.isMultipart()
          ? await datasources.createFile(
              context,
              await readFileForm(request, { fileSize: settings.uploadMaxBytes }),
            )
          : await datasources.createWeb(context, toWebInput(request.body));
        reply.code(201);
        return created;
      },
    );
  });

  app.get(
    "/api/datasources/:id",
    {
      config: { auth: "key", permission: "knowledge:read" },
      schema: {
        operationId: "getDatasource",
        tags: ["knowledge"],
        "x-extension": true,
        summary: "Get a datasource with its status and error message",
        params: datasourceParams,
        response: { 200: datasourceResponse },
      },
    },
    async (request) => datasources.get(callerOf(request), request.params.id),
  );

  app.patch(
    "/api/datasources/:id",
    {
      config: { auth: "key", permission: "knowledge:write" },
      schema: {
        operationId: "updateDatasource",
        tags: ["knowledge"],
        "x-extension": true,
        summary: "Set or remove the re-sync schedule of a web_page or web_site",
        params: datasourceParams,
        body: updateDatasourceBody,
        response: { 200: datasourceResponse },
        errors: {
          400: "A bad syncSchedule, or a datasource that takes none (file, text, a web_site's page)",
        },
      },
    },
    async (request) =>
      datasources.setSchedule(callerOf(request), request.params.id, request.body.syncSchedule),
  );

  app.delete(
    "/api/datasources/:id",
    {
      config: { auth: "key", permission: "knowledge:write" },
      schema: {
        operationId: "deleteDatasource",
        tags: ["knowledge"],
        summary: "Delete a datasource, its chunks, queued jobs and (for a web_site) its pages",
        params: datasourceParams,
        response: { 200: datasourceResponse },
      },
    },
    async (request) => datasources.delete(callerOf(request), request.params.id),
  );

  app.post(
    "/api/datasources/:id/synch",
    {
      config: { auth: "key", permission: "knowledge:write" },
      schema: {
        operationId: "syncDatasource",
        tags: ["knowledge"],
        "x-extension": true,
        summary: "Sync a datasource again (a web_site re-lists its pages and drops vanished ones)",
        params: datasourceParams,
        response: { 202: datasourceResponse },
      },
    },
    async (request, reply) => {
      reply.code(202);
      return datasources.resync(callerOf(request), request.params.id);
    },
  );

  app.get(
    "/api/datastores/:id/datasources",
    {
      config: { auth: "key", permission: "knowledge:read" },
      schema: {
        operationId: "listDatasources",
        tags: ["knowledge"],
        "x-extension": true,
        summary:
          "List the datasources of a datastore (web_site pages carry the site's id in groupId)",
        params: datastoreParams,
        response: { 200: z.array(datasourceResponse) },
      },
    },
    async (request) => datasources.listByDatastore(callerOf(request), request.params.id),
  );

  app.post(
    "/api/datastores/update/:datastoreId",
    {
      config: { auth: "key", permission: "knowledge:write" },
      schema: {
        operationId: "updateDatasourceText",
        tags: ["knowledge"],
        deprecated: true,
        summary: "Replace the text of a datasource and re-index it (deprecated)",
        params: datastoreIdParams,
        body: textUpdateBody,
        response: { 200: z.object({ id: z.string() }) },
        errors: {
          404: "No datasource with this id in the datastore",
          413: "The text is larger than UPLOAD_MAX_BYTES",
        },
      },
    },
    async (request) =>
      datasources.replaceText(callerOf(request), request.params.datastoreId, request.body),
  );
}

function toWebInput(body: unknown) {
  const parsed = webDatasourceInput.safeParse(body ?? {});
  if (!parsed.success) {
    const details = parsed.error.issues.map((issue) => ({
      path: ["body", ...issue.path.map(String)].join("."),
      message: issue.message,
    }));
    throw invalid(`Invalid request: ${details[0]!.path} ${details[0]!.message}`, details);
  }
  return parsed.data;
}
