import rateLimit from "@fastify/rate-limit";
import type { FastifyRequest } from "fastify";
import type { Redis } from "ioredis";
import { z } from "zod";
import type { AnnotationService } from "../../../domain/annotations/annotation-service.ts";
import type { AnnotationStatusService } from "../../../domain/annotations/annotation-status-service.ts";
import type { Caller } from "../../../domain/caller.ts";
import { AppError, unauthorized } from "../../../lib/errors.ts";
import type { App } from "../../app-types.ts";
import { type AuthHooks, contextOf } from "../../plugins/auth.ts";
import { MemoryRateLimitStore } from "../../plugins/memory-rate-limit-store.ts";
import {
  annotationBody,
  annotationDetailResponse,
  annotationListQuery,
  annotationParams,
  annotationResponse,
  statusBody,
  statusesBody,
} from "./annotation-schemas.ts";

export type AnnotationRouteDeps = {
  auth: AuthHooks;
  annotations: AnnotationService;
  statuses: AnnotationStatusService;
  anonymousRateLimit: {
    perMinute: number;
    /** Shared counters across API processes; in memory when absent. */
    redis: Redis | null;
  };
};

type Security = { tags: string[]; security: Array<Record<string, string[]>> };
const keyed: Security = { tags: ["annotations"], security: [{ bearerAuth: [] }] };
/** OpenAPI: anonymous allowed (for public agents) or a bearer key. */
const optionallyKeyed: Security = { tags: ["annotations"], security: [{}, { bearerAuth: [] }] };

/** The caller behind a valid key, or null for an anonymous request. */
const callerOf = (request: FastifyRequest): Caller | null =>
  request.auth ? contextOf(request) : null;

/** Sent credentials must be a valid key: a typo never silently turns into anonymity. */
const sendsCredentials = (request: FastifyRequest) => request.headers.authorization !== undefined;

async function refuseInvalidKey(request: FastifyRequest) {
  if (sendsCredentials(request) && !request.auth) {
    throw unauthorized("The API key is not valid");
  }
}

/** The spec's annotation endpoints, plus GET/PUT /api/annotation-statuses (extension). */
export function registerAnnotationRoutes(app: App, deps: AnnotationRouteDeps): void {
  // Auth runs before body validation, so an unauthenticated caller learns nothing else.
  const optionalKey = [deps.auth.optional(), refuseInvalidKey];
  const requiredKey = deps.auth.required();

  app.register(async (scope: App) => {
    await scope.register(rateLimit, {
      global: false,
      ...(deps.anonymousRateLimit.redis
        ? { redis: deps.anonymousRateLimit.redis, nameSpace: "agentdesk:rate-limit:" }
        : { store: MemoryRateLimitStore }),
      errorResponseBuilder: (_request, context) =>
        new AppError(
          "RATE_LIMITED",
          `Too many anonymous annotations from this address; retry in ${context.after}`,
        ),
    });

    scope.post(
      "/api/annotations",
      {
        config: {
          rateLimit: {
            max: deps.anonymousRateLimit.perMinute,
            timeWindow: 60_000,
            // Only anonymous calls are limited: a valid key is a known caller, and any other
            // Authorization header is refused with 401 right after.
            allowList: sendsCredentials,
          },
        },
        preValidation: optionalKey,
        schema: {
          summary: "Create or update the annotation of an agent message (upsert by messageId)",
          ...optionallyKeyed,
          body: annotationBody,
          response: { 200: annotationResponse },
        },
      },
      async (request) =>
        deps.annotations.upsert(callerOf(request), {
          ...request.body,
          tagIds: request.body.tagIds ?? undefined,
        }),
    );
  });

  app.get(
    "/api/annotations",
    {
      preValidation: optionalKey,
      schema: {
        summary: "List annotations, newest first, 20 per page",
        description:
          "Pass the id of the last item as `cursor` for the next page. The `x-next-cursor` " +
          "response header (extension) carries it when another page exists.",
        ...optionallyKeyed,
        querystring: annotationListQuery,
        response: { 200: z.array(annotationResponse) },
      },
    },
    async (request, reply) => {
      const page = await deps.annotations.list(callerOf(request), request.query);
      if (page.nextCursor) reply.header("x-next-cursor", page.nextCursor);
      return page.items;
    },
  );

  app.get(
    "/api/annotations/:id",
    {
      preValidation: requiredKey,
      schema: {
        summary: "One annotation with its message and the whole conversation",
        ...keyed,
        params: annotationParams,
        response: { 200: annotationDetailResponse },
      },
    },
    async (request) => deps.annotations.get(contextOf(request), request.params.id),
  );

  app.patch(
    "/api/annotations/:id",
    {
      preValidation: requiredKey,
      schema: {
        summary: "Change the status of an annotation",
        ...keyed,
        params: annotationParams,
        body: statusBody,
        response: { 200: annotationResponse },
      },
    },
    async (request) =>
      deps.annotations.updateStatus(contextOf(request), request.params.id, request.body.status),
  );

  app.delete(
    "/api/annotations/:id",
    {
      preValidation: requiredKey,
      schema: {
        summary: "Delete an annotation",
        ...keyed,
        params: annotationParams,
        response: { 200: z.object({ success: z.literal(true) }) },
      },
    },
    async (request) => deps.annotations.remove(contextOf(request), request.params.id),
  );

  const statusesResponse = { 200: z.object({ statuses: z.array(z.string()) }) };
  app.get(
    "/api/annotation-statuses",
    {
      preValidation: requiredKey,
      schema: {
        summary: "The statuses annotations of this organization may take (extension)",
        ...keyed,
        tags: ["extensions"],
        response: statusesResponse,
      },
    },
    async (request) => deps.statuses.get(contextOf(request)),
  );

  app.put(
    "/api/annotation-statuses",
    {
      preValidation: requiredKey,
      schema: {
        summary: "Replace the statuses annotations of this organization may take (extension)",
        ...keyed,
        tags: ["extensions"],
        body: statusesBody,
        response: statusesResponse,
      },
    },
    async (request) => deps.statuses.set(contextOf(request), request.body.statuses),
  );
}
