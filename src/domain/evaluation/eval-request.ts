import { z } from "zod";
import { AGENT_MODEL_NAMES } from "../../models/model-catalog.ts";
import { retrievalEvaluationConfigSchema } from "../agents/retrieval-evaluation-config.ts";
import { HISTORY_MESSAGES } from "../query/answer-pipeline.ts";

/** The request bodies of the evaluation API (DESIGN.md §14): the routes validate with them. */

const TEXT_MAX = 100_000;
/** Phrases a case may list per assertion, each at most this long. */
const PHRASES_MAX = 50;
const PHRASE_CHARS_MAX = 1_000;

const id = z.string().trim().min(1).max(200);

const phrases = (what: string) =>
  z
    .array(z.string().trim().min(1).max(PHRASE_CHARS_MAX))
    .max(PHRASES_MAX)
    .default([])
    .describe(what);

/** A model of the catalog, the error naming the one asked for when it is not. */
const modelName = (field: string) =>
  z.enum(AGENT_MODEL_NAMES, {
    error: (issue) =>
      `${field} ${JSON.stringify(issue.input)} is not a model of this service (${AGENT_MODEL_NAMES.join(", ")})`,
  });

export const evalSetBody = z.object({
  name: z.string().trim().min(1).max(200),
  agentId: id.describe("The agent whose answers the set checks"),
});
export type EvalSetInput = z.infer<typeof evalSetBody>;

export const evalCaseBody = z.object({
  question: z.string().trim().min(1).max(TEXT_MAX).describe("The customer's message to answer"),
  history: z
    .array(
      z.object({
        from: z.enum(["human", "agent"]),
        text: z.string().min(1).max(TEXT_MAX),
      }),
    )
    .max(HISTORY_MESSAGES)
    .default([])
    .describe("The conversation before the question, oldest first"),
  expectedAnswer: z
    .string()
    .trim()
    .min(1)
    .max(TEXT_MAX)
    .optional()
    .describe("What a good answer says: judged by the run's judgeModel"),
  mustInclude: phrases("Phrases the answer must contain (ignoring case)"),
  mustNotInclude: phrases("Phrases the answer must not contain (ignoring case)"),
  expectedSources: phrases(
    "Sources (a datasource's file name or URL, as the answer's sources name them) the answer must cite",
  ),
});
export type EvalCaseInput = z.infer<typeof evalCaseBody>;

export const evalImportBody = z.object({
  from: z.literal("annotations"),
  sentiment: z.enum(["good", "bad"]).optional(),
  status: z.string().trim().min(1).max(100).optional(),
  tagIds: z.array(id).max(50).optional().describe("Annotations with any of these tags"),
});
export type EvalImportInput = z.infer<typeof evalImportBody>;

const evalOverridesSchema = z
  .object({
    systemPrompt: z.string().max(TEXT_MAX).optional(),
    modelName: modelName("modelName").optional(),
    temperature: z.number().min(0).max(2).optional(),
    retrievalEvaluationConfig: retrievalEvaluationConfigSchema.optional(),
  })
  .strict();

export const evalRunBody = z.object({
  evalSetId: id,
  agentVersion: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe("The agent version to replay; the agent as it is by default"),
  overrides: evalOverridesSchema.optional(),
  judgeModel: modelName("judgeModel")
    .optional()
    .describe("The model that scores answers against expectedAnswer"),
});
export type EvalRunInput = z.infer<typeof evalRunBody>;
