import type { FastifyRequest } from "fastify";
import { z } from "zod";
import {
  annotationBody,
  annotationListQuery,
} from "../../../domain/annotations/annotation-request.ts";
import type { AnnotationService } from "../../../domain/annotations/annotation-service.ts";
import type { AnnotationStatusService } from "../../../domain/annotations/annotation-status-service.ts";
import { AppError } from "../../../lib/errors.ts";
import type { App } from "../../app-types.ts";
import { callerOf, optionalCallerOf } from "../../plugins/auth.ts";
import { type RouteLimit, waitInWords } from "../../plugins/declared-limits.ts";
import {
  annotationDetailResponse,
  annotationParams,
  annotationResponse,
  statusBody,
  statusesBody,
} from "./annotation-schemas.ts";

export type AnnotationRouteDeps = {
  annotations: AnnotationService;
  annotationStatuses: AnnotationStatusService;
};

/** ANNOTATIONS_ANONYMOUS_RATE_LIMIT_PER_MINUTE: ratings without a key, per address. */
export type AnnotationSettings = { anonymousRateLimitPerMinute: number };

const annotationLookupErrors = {
  401: "the annotation belongs to another organization",
  404: "No annotation with this id",
};

/**
 * Signed-in users are known callers; sent credentials must be a valid key (a typo never
 * silently turns into anonymity).
 */
const sendsCredentials = (request: FastifyRequest) =>
  request.auth !== null || request.headers.authorization !== undefined;

/** Anonymous annotations per client IP, counted as they arrive, valid or not. */
const anonymousLimit = (perMinute: number): RouteLimit => ({
  name: "annotations:ip",
  key: (request) => request.ip,
  max: perMinute,
  per: "minute",
  // Only anonymous calls are limited: a valid key is a known caller, and any other
  // Authorization header is refused with 401 right after.
  counts: (request) => !sendsCredentials(request),
  counted: "on-arrival",
  announced: true,
  refusal: (seconds) =>
    new AppError(
      "RATE_LIMITED",
      `Too many anonymous annotations from this address; retry in ${waitInWords(seconds)}`,
    ),
});

/** The spec's annotation endpoints, plus GET/PUT /api/annotation-statuses (extension). */
export function registerAnnotationRoutes(
  app: App,
  deps: AnnotationRouteDeps,
  settings: AnnotationSettings,
): void {
  app.get(
    "/api/annotations",
    {
      config: { auth: "optional", permission: "annotations:read" },
      schema: {
        operationId: "listAnnotations",
        tags: ["annotations"],
        summary: "List annotations, newest first, 20 per page",
        description:
          "Pass the id of the last item as `cursor` for the next page. The `x-next-cursor` " +
          "response header (extension) carries it when another page exists.",
        querystring: annotationListQuery,
        response: { 200: z.array(annotationResponse) },
        errors: {
          401:
            "no key was sent and agentId or messageId is not of a public agent, " +
            "or a filter names an agent or message of another organization",
        },
      },
    },
    async (request, reply) => {
      const page = await deps.annotations.list(optionalCallerOf(request), request.query);
      if (page.nextCursor) reply.header("x-next-cursor", page.nextCursor);
      return page.items;
    },
  );

  app.post(
    "/api/annotations",
    {
      config: {
        auth: "optional",
        permission: "annotations:write",
        limits: [anonymousLimit(settings.anonymousRateLimitPerMinute)],
      },
      schema: {
        operationId: "upsertAnnotation",
        tags: ["annotations"],
        summary: "Create or update the annotation of an agent message (upsert by messageId)",
        body: annotationBody,
        response: { 200: annotationResponse },
        errors: {
          400: "Invalid body, an empty comment, or a message that is not from an agent",
          401:
            "no key was sent and the message is not of a public agent, " +
            "or the message is of another organization",
          404: "No message with this messageId",
        },
      },
    },
    async (request) =>
      deps.annotations.upsert(optionalCallerOf(request), {
        ...request.body,
        tagIds: request.body.tagIds ?? undefined,
      }),
  );

  app.get(
    "/api/annotations/:id",
    {
      config: { auth: "key", permission: "annotations:read" },
      schema: {
        operationId: "getAnnotation",
        tags: ["annotations"],
        summary: "One annotation with its message and the whole conversation",
        params: annotationParams,
        response: { 200: annotationDetailResponse },
        errors: annotationLookupErrors,
      },
    },
    async (request) => deps.annotations.get(callerOf(request), request.params.id),
  );

  app.patch(
    "/api/annotations/:id",
    {
      config: { auth: "key", permission: "annotations:write" },
      schema: {
        operationId: "updateAnnotationStatus",
        tags: ["annotations"],
        summary: "Change the status of an annotation",
        params: annotationParams,
        body: statusBody,
        response: { 200: annotationResponse },
        errors: annotationLookupErrors,
      },
    },
    async (request) =>
      deps.annotations.updateStatus(callerOf(request), request.params.id, request.body.status),
  );

  app.delete(
    "/api/annotations/:id",
    {
      config: { auth: "key", permission: "annotations:write" },
      schema: {
        operationId: "deleteAnnotation",
        tags: ["annotations"],
        summary: "Delete an annotation",
        params: annotationParams,
        response: { 200: z.object({ success: z.literal(true) }) },
        errors: annotationLookupErrors,
      },
    },
    async (request) => deps.annotations.remove(callerOf(request), request.params.id),
  );

  const statusesResponse = { 200: z.object({ statuses: z.array(z.string()) }) };
  app.get(
    "/api/annotation-statuses",
    {
      config: { auth: "key", permission: "annotations:read" },
      schema: {
        operationId: "getAnnotationStatuses",
        tags: ["annotations"],
        "x-extension": true,
        summary: "The statuses annotations of this organization may take (extension)",
        response: statusesResponse,
      },
    },
    async (request) => deps.annotationStatuses.get(callerOf(request)),
  );

  app.put(
    "/api/annotation-statuses",
    {
      config: { auth: "key", permission: "annotations:write" },
      schema: {
        operationId: "setAnnotationStatuses",
        tags: ["annotations"],
        "x-extension": true,
        summary: "Replace the statuses annotations of this organization may take (extension)",
        body: statusesBody,
        response: statusesResponse,
      },
    },
    async (request) => deps.annotationStatuses.set(callerOf(request), request.body.statuses),
  );
}
