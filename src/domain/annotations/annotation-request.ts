import { z } from "zod";

/** PostgreSQL text cannot hold NUL: refuse it as bad input instead of failing in the database. */
export const noNul = (value: string) => !value.includes("\u0000");
export const NUL_MESSAGE = "must not contain NUL characters";

/** An id in an annotation request: 1 to 100 characters, no NUL. */
export const annotationIdField = () => z.string().min(1).max(100).refine(noNul, NUL_MESSAGE);

/** The body of POST /api/annotations: the route validates with it, the domain reads its type. */
export const annotationBody = z.object({
  messageId: annotationIdField().describe(
    "The agent message to annotate; one annotation per message",
  ),
  sentiment: z.enum(["good", "bad"]),
  comment: z
    .string()
    .max(10_000)
    .refine((value) => value.trim().length > 0, "must not be empty or whitespace")
    .refine(noNul, NUL_MESSAGE),
  tagIds: z
    .array(annotationIdField())
    .max(100)
    .nullish()
    .describe("Replaces all tags of the annotation; omitted, null or empty removes them all"),
});

/** The body of POST /api/annotations, validated (tagIds may be null: no tags). */
export type AnnotationInput = z.output<typeof annotationBody>;

/** The filters of GET /api/annotations and its page's cursor. */
export const annotationListQuery = z.object({
  agentId: annotationIdField().optional(),
  sentiment: z
    .string()
    .max(10)
    .transform((value) => value.toLowerCase())
    .pipe(z.enum(["good", "bad"]))
    .optional()
    .describe("good or bad, in any case"),
  conversationId: annotationIdField().optional(),
  messageId: annotationIdField().optional(),
  status: z.string().min(1).max(50).refine(noNul, NUL_MESSAGE).optional(),
  cursor: annotationIdField()
    .optional()
    .describe("The id of the last annotation of the previous page"),
});

export type AnnotationQuery = z.output<typeof annotationListQuery>;
