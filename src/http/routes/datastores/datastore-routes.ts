import { z } from "zod";
import {
  createDatastoreBody,
  datastoreQueryBody,
  datastoreQueryResult,
  datastoreResponse,
  updateDatastoreBody,
} from "../../../domain/knowledge/datastore-request.ts";
import type { DatastoreService } from "../../../domain/knowledge/datastore-service.ts";
import type { App } from "../../app-types.ts";
import { callerOf, optionalCallerOf } from "../../plugins/auth.ts";
import { datastoreParams, patchedDatastoreResponse } from "./datastore-schemas.ts";

export type DatastoreRouteDeps = { knowledge: { datastores: DatastoreService } };

/** Datastores: the spec's query and PATCH, plus create/list/get/delete (extensions). */
export function registerDatastoreRoutes(app: App, deps: DatastoreRouteDeps): void {
  const { datastores } = deps.knowledge;
  app.post(
    "/api/datastores",
    {
      config: { auth: "key", permission: "knowledge:write" },
      schema: {
        operationId: "createDatastore",
        tags: ["knowledge"],
        "x-extension": true,
        summary: "Create a datastore",
        body: createDatastoreBody,
        response: { 201: datastoreResponse },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return datastores.create(callerOf(request), request.body);
    },
  );

  app.get(
    "/api/datastores",
    {
      config: { auth: "key", permission: "knowledge:read" },
      schema: {
        operationId: "listDatastores",
        tags: ["knowledge"],
        "x-extension": true,
        summary: "List datastores",
        response: { 200: z.array(datastoreResponse) },
      },
    },
    async (request) => datastores.list(callerOf(request)),
  );

  app.get(
    "/api/datastores/:id",
    {
      config: { auth: "key", permission: "knowledge:read" },
      schema: {
        operationId: "getDatastore",
        tags: ["knowledge"],
        "x-extension": true,
        summary: "Get a datastore",
        params: datastoreParams,
        response: { 200: datastoreResponse },
      },
    },
    async (request) => datastores.get(callerOf(request), request.params.id),
  );

  app.patch(
    "/api/datastores/:id",
    {
      config: { auth: "key", permission: "knowledge:write" },
      schema: {
        operationId: "updateDatastore",
        tags: ["knowledge"],
        summary:
          "Update a datastore (name, description, type; visibility and embedder as extensions)",
        params: datastoreParams,
        body: updateDatastoreBody,
        response: { 200: patchedDatastoreResponse },
      },
    },
    async (request) => datastores.update(callerOf(request), request.params.id, request.body),
  );

  app.delete(
    "/api/datastores/:id",
    {
      config: { auth: "key", permission: "knowledge:write" },
      schema: {
        operationId: "deleteDatastore",
        tags: ["knowledge"],
        "x-extension": true,
        summary: "Delete a datastore with its datasources, chunks and queued jobs",
        params: datastoreParams,
        response: { 200: datastoreResponse },
      },
    },
    async (request) => datastores.delete(callerOf(request), request.params.id),
  );

  app.post(
    "/api/datastores/:id/query",
    {
      config: { auth: "optional", permission: "knowledge:read" },
      schema: {
        operationId: "queryDatastore",
        tags: ["knowledge"],
        summary: "Retrieve the most similar fragments (public datastores need no key)",
        params: datastoreParams,
        body: datastoreQueryBody,
        response: { 200: z.array(datastoreQueryResult) },
        errors: {
          401: "no key was sent and the datastore is private",
          404: "No datastore with this id that the caller may read",
          502: "The datastore's embedding model answered with an error",
          503: "The datastore's embedding model is not available",
        },
      },
    },
    async (request) => datastores.query(optionalCallerOf(request), request.params.id, request.body),
  );
}
