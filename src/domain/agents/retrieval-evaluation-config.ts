import { z } from "zod";
import { AGENT_MODEL_NAMES, type AgentModelName } from "../../models/model-catalog.ts";

const LONG_TEXT = 100_000;
/** Most rounds of super retrieval an agent may ask for: each round is two model calls. */
const MAX_RETRIEVAL_ROUNDS = 5;
/** Most tokens an agent may allow one model to write (the catalog's largest outputs). */
const MAX_MODEL_OUTPUT_TOKENS = 32_768;

const modelName = () =>
  z.enum(AGENT_MODEL_NAMES, {
    error: `must be an agent model name (${AGENT_MODEL_NAMES.join(", ")})`,
  });
const modelList = () =>
  z
    .array(modelName())
    .max(10)
    .refine((names) => new Set(names).size === names.length, "must not repeat a model");
const perModel = <Value extends z.ZodType>(value: Value) =>
  z.partialRecord(modelName(), value, {
    error: `must be keyed by agent model names (${AGENT_MODEL_NAMES.join(", ")})`,
  });

/**
 * What `additionalConfig` may say to the models of super retrieval: the AI SDK's call settings
 * (each provider takes the ones it supports) and `providerOptions` keyed by provider. Other keys
 * are kept as sent and not used.
 */
const additionalConfigSchema = z.looseObject({
  topP: z.number().min(0).max(1).optional(),
  topK: z.number().int().min(1).max(1_000).optional(),
  presencePenalty: z.number().min(-2).max(2).optional(),
  frequencyPenalty: z.number().min(-2).max(2).optional(),
  seed: z.number().int().optional(),
  stopSequences: z.array(z.string().min(1).max(200)).max(4).optional(),
  providerOptions: z.record(z.string(), z.record(z.string(), z.unknown())).optional(),
});

/** The spec's `retrievalEvaluationConfig`: known fields checked, unknown keys kept as sent. */
export const retrievalEvaluationConfigSchema = z.looseObject({
  evaluatorPrompt: z.string().max(LONG_TEXT).optional(),
  generateQueryPrompt: z.string().max(LONG_TEXT).optional(),
  evaluatorModelName: modelName().optional(),
  retrievalRounds: z.number().int().min(1).max(MAX_RETRIEVAL_ROUNDS).optional(),
  evaluationThreshold: z
    .number()
    .min(0, "is a relevance score between 0 and 1")
    .max(1, "is a relevance score between 0 and 1")
    .optional(),
  additionalConfig: additionalConfigSchema.optional(),
  retrievalModelName: modelName().optional(),
  generationModelName: modelName().optional(),
  fallbackModels: modelList().optional(),
  modelTemperatures: perModel(z.number().min(0).max(2)).optional(),
  modelMaxTokens: perModel(z.number().int().min(1).max(MAX_MODEL_OUTPUT_TOKENS)).optional(),
  enableModelComparison: z.boolean().optional(),
  comparisonModels: modelList().optional(),
});

const DEFAULT_GENERATE_QUERY_PROMPT = [
  "You help a search engine find passages of a knowledge base that answer a customer's question.",
  "Write 3 short search queries that say the question in other words: synonyms, the terms a help",
  "page would use, the implied topic. Write one query per line and nothing else.",
].join(" ");

const DEFAULT_EVALUATOR_PROMPT = [
  "You judge whether passages of a knowledge base help answer a customer's question.",
  "Score each passage from 0 (unrelated) to 1 (answers the question).",
  "Reply with one line per passage in the form <passage number>: <score> and nothing else.",
].join(" ");

const DEFAULTS = {
  retrievalRounds: 2,
  evaluationThreshold: 0.5,
};

/** An agent's super retrieval settings, every missing field given its documented default. */
export type SuperRetrievalSettings = {
  generateQueryPrompt: string;
  retrievalModelName: AgentModelName;
  evaluatorPrompt: string;
  evaluatorModelName: AgentModelName;
  retrievalRounds: number;
  evaluationThreshold: number;
  generationModelName: AgentModelName;
  fallbackModels: AgentModelName[];
  modelTemperatures: Partial<Record<AgentModelName, number>>;
  modelMaxTokens: Partial<Record<AgentModelName, number>>;
  additionalConfig: z.infer<typeof additionalConfigSchema>;
  /** Empty unless `enableModelComparison` is true. */
  comparisonModels: AgentModelName[];
};

type ConfigShape = (typeof retrievalEvaluationConfigSchema)["shape"];

/**
 * Reads a stored config field by field: a value stored before these checks existed that does
 * not pass them now counts as missing, so one bad field never disables the others.
 */
function fieldOf<Key extends keyof ConfigShape>(
  stored: Record<string, unknown>,
  key: Key,
): z.infer<ConfigShape[Key]> | undefined {
  const parsed = retrievalEvaluationConfigSchema.shape[key].safeParse(stored[key]);
  return parsed.success ? (parsed.data as z.infer<ConfigShape[Key]>) : undefined;
}

const nonBlank = (text: string | undefined) =>
  text !== undefined && text.trim() !== "" ? text : undefined;

/** The settings of an agent's super retrieval (see docs/agents.md, "Super retrieval"). */
export function superRetrievalSettingsOf(agent: {
  modelName: string;
  retrievalEvaluationConfig: Record<string, unknown> | null;
}): SuperRetrievalSettings {
  const stored = agent.retrievalEvaluationConfig ?? {};
  const agentModel = agent.modelName as AgentModelName;
  const retrievalModelName = fieldOf(stored, "retrievalModelName") ?? agentModel;
  return {
    generateQueryPrompt:
      nonBlank(fieldOf(stored, "generateQueryPrompt")) ?? DEFAULT_GENERATE_QUERY_PROMPT,
    retrievalModelName,
    evaluatorPrompt: nonBlank(fieldOf(stored, "evaluatorPrompt")) ?? DEFAULT_EVALUATOR_PROMPT,
    evaluatorModelName: fieldOf(stored, "evaluatorModelName") ?? retrievalModelName,
    retrievalRounds: fieldOf(stored, "retrievalRounds") ?? DEFAULTS.retrievalRounds,
    evaluationThreshold: fieldOf(stored, "evaluationThreshold") ?? DEFAULTS.evaluationThreshold,
    generationModelName: fieldOf(stored, "generationModelName") ?? agentModel,
    fallbackModels: fieldOf(stored, "fallbackModels") ?? [],
    modelTemperatures: fieldOf(stored, "modelTemperatures") ?? {},
    modelMaxTokens: fieldOf(stored, "modelMaxTokens") ?? {},
    additionalConfig: fieldOf(stored, "additionalConfig") ?? {},
    comparisonModels:
      fieldOf(stored, "enableModelComparison") === true
        ? (fieldOf(stored, "comparisonModels") ?? [])
        : [],
  };
}
