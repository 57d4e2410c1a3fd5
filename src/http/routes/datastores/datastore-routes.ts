import type { FastifyRequest } from "fastify";
import { z } from "zod";
import type { DatastoreService } from "../../../domain/knowledge/datastore-service.ts";
import { unauthorized } from "../../../lib/errors.ts";
import type { App } from "../../app-types.ts";
import { type AuthHooks, bearerToken, contextOf } from "../../plugins/auth.ts";
import {
  createDatastoreBody,
  datastoreParams,
  datastoreResponse,
  patchedDatastoreResponse,
  queryBody,
  queryResponse,
  updateDatastoreBody,
} from "./datastore-schemas.ts";

export type DatastoreRouteDeps = { auth: AuthHooks; datastores: DatastoreService };

const keyed = { security: [{ bearerAuth: [] }] };
const extension = { ...keyed, tags: ["extensions"] };

/** A key that is presented must be valid: a typo never silently turns into anonymity. */
async function refuseInvalidKey(request: FastifyRequest) {
  if (bearerToken(request) !== null && !request.auth)
    throw unauthorized("The API key is not valid");
}

/** Datastores: the spec's query and PATCH, plus create/list/get/delete (extensions). */
export function registerDatastoreRoutes(app: App, deps: DatastoreRouteDeps): void {
  const required = deps.auth.required();

  app.post(
    "/api/datastores",
    {
      preValidation: required,
      schema: {
        ...extension,
        summary: "Create a datastore",
        body: createDatastoreBody,
        response: { 201: datastoreResponse },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return deps.datastores.create(contextOf(request), request.body);
    },
  );

  app.get(
    "/api/datastores",
    {
      preValidation: required,
      schema: {
        ...extension,
        summary: "List datastores",
        response: { 200: z.array(datastoreResponse) },
      },
    },
    async (request) => deps.datastores.list(contextOf(request)),
  );

  app.get(
    "/api/datastores/:id",
    {
      preValidation: required,
      schema: {
        ...extension,
        summary: "Get a datastore",
        params: datastoreParams,
        response: { 200: datastoreResponse },
      },
    },
    async (request) => deps.datastores.get(contextOf(request), request.params.id),
  );

  app.patch(
    "/api/datastores/:id",
    {
      preValidation: required,
      schema: {
        ...keyed,
        summary:
          "Update a datastore (name, description, type; visibility and embedder as extensions)",
        params: datastoreParams,
        body: updateDatastoreBody,
        response: { 200: patchedDatastoreResponse },
      },
    },
    async (request) => deps.datastores.update(contextOf(request), request.params.id, request.body),
  );

  app.delete(
    "/api/datastores/:id",
    {
      preValidation: required,
      schema: {
        ...extension,
        summary: "Delete a datastore with its datasources, chunks and queued jobs",
        params: datastoreParams,
        response: { 200: datastoreResponse },
      },
    },
    async (request) => deps.datastores.delete(contextOf(request), request.params.id),
  );

  app.post(
    "/api/datastores/:id/query",
    {
      preValidation: [deps.auth.optional(), refuseInvalidKey],
      schema: {
        security: [{}, { bearerAuth: [] }],
        summary: "Retrieve the most similar fragments (public datastores need no key)",
        params: datastoreParams,
        body: queryBody,
        response: { 200: queryResponse },
      },
    },
    async (request) =>
      deps.datastores.query(
        request.auth ? contextOf(request) : null,
        request.params.id,
        request.body,
      ),
  );
}
