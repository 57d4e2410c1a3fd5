import { z } from "zod";
import { retrievalEvaluationConfigSchema } from "../../../domain/agents/retrieval-evaluation-config.ts";
import { AGENT_MODEL_NAMES } from "../../../models/model-catalog.ts";

const LONG_TEXT = 100_000;
const id = () => z.string().trim().min(1).max(200);
const freeObject = () => z.record(z.string(), z.unknown());

export const agentIdParams = z.object({ id: z.string().min(1).max(200) });

const toolSchema = z.object({
  id: z.string().trim().min(1).max(64).optional(),
  type: z
    .string()
    .trim()
    .min(1)
    .max(64)
    .describe("datastore, or any other tool type (stored as given)"),
  config: freeObject().optional(),
  datastoreId: id().optional(),
  formId: id().optional(),
  serviceProviderId: id().optional(),
});

const followUpConfigSchema = z.looseObject({
  prompt: z.string().max(LONG_TEXT).optional(),
  count: z.number().int().min(0).max(1_000).optional(),
  followUpDelayHours: z
    .number()
    .min(0)
    .max(24 * 365)
    .optional(),
  config: freeObject().optional(),
});

/** `scheme://host[:port]` exactly as a browser sends it in `Origin` (lowercase, no path). */
function isOrigin(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === "https:" || url.protocol === "http:") && url.origin === value;
  } catch {
    return false;
  }
}

const originSchema = z
  .string()
  .max(300)
  .refine(isOrigin, "must be an origin: scheme://host[:port], lowercase, without a path");

/** Every field of the spec's Agent except id, plus the extensions; all optional (PATCH). */
export const agentFieldsSchema = z.object({
  name: z.string().trim().min(1).max(200).optional(),
  description: z.string().max(10_000).optional(),
  modelName: z.enum(AGENT_MODEL_NAMES).optional(),
  temperature: z.number().min(0).max(2).optional(),
  visibility: z.enum(["public", "private"]).optional(),
  systemPrompt: z.string().max(LONG_TEXT).optional(),
  userPrompt: z.string().max(LONG_TEXT).optional(),
  handle: z.string().trim().min(1).max(100).nullable().optional(),
  iconUrl: z
    .url({ protocol: /^https?$/ })
    .max(2_048)
    .nullable()
    .optional(),
  useSuperRetrieval: z.boolean().optional(),
  useFollowUp: z.boolean().optional(),
  useConversationalMode: z.boolean().optional(),
  promptType: z.enum(["raw", "customer_support"]).optional(),
  promptTemplate: z.string().max(LONG_TEXT).optional(),
  retrievalEvaluationConfig: retrievalEvaluationConfigSchema.nullable().optional(),
  followUpConfig: followUpConfigSchema.nullable().optional(),
  tools: z.array(toolSchema).max(50).optional(),
  datastoreIds: z
    .array(id())
    .max(50)
    .optional()
    .describe("Shorthand: one datastore tool per id (replaces the agent's datastore tools)"),
  allowedOrigins: z
    .array(originSchema)
    .max(50)
    .optional()
    .describe(
      "Extension: origins whose pages may use the public chat of this (public) agent; empty: any",
    ),
  unavailableMessage: z
    .string()
    .trim()
    .min(1)
    .max(2_000)
    .nullable()
    .optional()
    .describe(
      "Extension: sent on messaging channels when no answer can be given (out of credits, the model failed); null: nothing is sent",
    ),
});

export const createAgentBody = agentFieldsSchema.extend({
  name: z.string().trim().min(1).max(200),
});

export const agentSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  modelName: z.enum(AGENT_MODEL_NAMES),
  temperature: z.number(),
  visibility: z.enum(["public", "private"]),
  systemPrompt: z.string(),
  userPrompt: z.string(),
  handle: z.string().nullable(),
  iconUrl: z.string().nullable(),
  useSuperRetrieval: z.boolean(),
  useFollowUp: z.boolean(),
  useConversationalMode: z.boolean(),
  promptType: z.enum(["raw", "customer_support"]),
  promptTemplate: z.string(),
  retrievalEvaluationConfig: freeObject(),
  followUpConfig: freeObject(),
  tools: z.array(
    z.object({
      id: z.string(),
      type: z.string(),
      config: freeObject().optional(),
      datastoreId: z.string().optional(),
      formId: z.string().optional(),
      serviceProviderId: z.string().optional(),
    }),
  ),
  allowedOrigins: z.array(z.string()),
  unavailableMessage: z.string().nullable(),
  version: z
    .number()
    .int()
    .describe(
      "Extension: the number of the agent's current version; each change of an answer-affecting field makes the next (GET /api/agents/{id}/versions)",
    ),
  createdAt: z.string(),
  updatedAt: z.string(),
});

/** A version of an agent: its number, author, time and answer-affecting fields. */
export const agentVersionSchema = z.object({
  version: z.number().int(),
  author: z
    .object({ type: z.enum(["user", "key"]), id: z.string() })
    .nullable()
    .describe(
      "Who made it: a signed-in user, or an API key; null for the version 1 of an agent made before versions existed",
    ),
  createdAt: z.string(),
  fields: agentSchema
    .pick({
      temperature: true,
      systemPrompt: true,
      userPrompt: true,
      promptType: true,
      promptTemplate: true,
      tools: true,
      useSuperRetrieval: true,
      retrievalEvaluationConfig: true,
    })
    .extend({
      modelName: z
        .string()
        .describe("The agent model name (docs/models.md) the version was made with"),
    })
    .describe("The answer-affecting fields, as the agent shows them"),
});
