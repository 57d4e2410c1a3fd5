import { z } from "zod";
import { noNul } from "../../../domain/annotations/annotation-request.ts";
import type { AnnotationTagService } from "../../../domain/annotations/annotation-tag-service.ts";
import type { App } from "../../app-types.ts";
import { callerOf } from "../../plugins/auth.ts";

const tagResponse = z.object({ id: z.string(), name: z.string(), createdAt: z.string() });

/** POST/GET /api/annotation-tags (extension): the tags annotations can carry. */
export function registerAnnotationTagRoutes(
  app: App,
  deps: { annotationTags: AnnotationTagService },
): void {
  app.post(
    "/api/annotation-tags",
    {
      config: { auth: "key", permission: "annotations:write" },
      schema: {
        operationId: "createAnnotationTag",
        tags: ["annotations"],
        "x-extension": true,
        summary: "Create an annotation tag; names are unique per organization in any case",
        body: z.object({
          name: z.string().trim().min(1).max(100).refine(noNul, "must not contain NUL characters"),
        }),
        response: { 201: tagResponse },
      },
    },
    async (request, reply) => {
      const tag = await deps.annotationTags.create(callerOf(request), request.body.name);
      reply.code(201);
      return tag;
    },
  );

  app.get(
    "/api/annotation-tags",
    {
      config: { auth: "key", permission: "annotations:read" },
      schema: {
        operationId: "listAnnotationTags",
        tags: ["annotations"],
        "x-extension": true,
        summary: "The organization's annotation tags, by name",
        response: { 200: z.array(tagResponse) },
      },
    },
    async (request) => deps.annotationTags.list(callerOf(request)),
  );
}
