import {
  type Agent,
  type AgentBody,
  type AgentCreateBody,
  isModelName,
  type ModelName,
} from "./agent-api.ts";

/** A model name and a number for it, as one row of "temperature per model" and the like. */
export type PerModelRow = { model: ModelName; value: string };

/**
 * What the agent form holds: text as typed (numbers included, so a field can be empty), read
 * from an agent and turned back into the API's body by `bodyOf`.
 */
export type AgentFormValues = {
  name: string;
  description: string;
  handle: string;
  iconUrl: string;
  visibility: Agent["visibility"];
  modelName: ModelName;
  temperature: string;
  promptType: Agent["promptType"];
  systemPrompt: string;
  userPrompt: string;
  promptTemplate: string;
  datastoreIds: string[];
  useSuperRetrieval: boolean;
  retrieval: RetrievalValues;
  useFollowUp: boolean;
  followUp: FollowUpValues;
  useConversationalMode: boolean;
  unavailableMessage: string;
  /** One origin per line. */
  allowedOrigins: string;
};

export type RetrievalValues = {
  generateQueryPrompt: string;
  retrievalModelName: ModelName | "";
  evaluatorPrompt: string;
  evaluatorModelName: ModelName | "";
  retrievalRounds: string;
  evaluationThreshold: string;
  generationModelName: ModelName | "";
  fallbackModels: ModelName[];
  modelTemperatures: PerModelRow[];
  modelMaxTokens: PerModelRow[];
  enableModelComparison: boolean;
  comparisonModels: ModelName[];
  topP: string;
  topK: string;
  presencePenalty: string;
  frequencyPenalty: string;
  seed: string;
  /** One stop sequence per line. */
  stopSequences: string;
  /** JSON text of `additionalConfig.providerOptions`. */
  providerOptions: string;
};

export type FollowUpValues = {
  prompt: string;
  count: string;
  followUpDelayHours: string;
  /** JSON text of `followUpConfig.config`. */
  config: string;
};

type Json = Record<string, unknown>;

const RETRIEVAL_KEYS = [
  "generateQueryPrompt",
  "retrievalModelName",
  "evaluatorPrompt",
  "evaluatorModelName",
  "retrievalRounds",
  "evaluationThreshold",
  "generationModelName",
  "fallbackModels",
  "modelTemperatures",
  "modelMaxTokens",
  "enableModelComparison",
  "comparisonModels",
  "additionalConfig",
];
const ADDITIONAL_KEYS = [
  "topP",
  "topK",
  "presencePenalty",
  "frequencyPenalty",
  "seed",
  "stopSequences",
  "providerOptions",
];
const FOLLOW_UP_KEYS = ["prompt", "count", "followUpDelayHours", "config"];

const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const text = (value: unknown) => (typeof value === "string" ? value : "");
const numberText = (value: unknown) => (typeof value === "number" ? String(value) : "");
const modelOrEmpty = (value: unknown): ModelName | "" => (isModelName(value) ? value : "");
const models = (value: unknown): ModelName[] =>
  Array.isArray(value) ? value.filter(isModelName) : [];
const rows = (value: unknown): PerModelRow[] =>
  isObject(value)
    ? Object.entries(value).flatMap(([model, number]) =>
        isModelName(model) && typeof number === "number" ? [{ model, value: String(number) }] : [],
      )
    : [];
const jsonText = (value: unknown) =>
  isObject(value) && Object.keys(value).length > 0 ? JSON.stringify(value, null, 2) : "";

/** The form of a new agent: the API's defaults of POST /api/agents (docs/agents.md). */
export function newAgentValues(): AgentFormValues {
  return valuesOf(null);
}

export function valuesOf(agent: Agent | null): AgentFormValues {
  const retrieval = agent?.retrievalEvaluationConfig ?? {};
  const additional = isObject(retrieval.additionalConfig) ? retrieval.additionalConfig : {};
  const followUp = agent?.followUpConfig ?? {};
  return {
    name: agent?.name ?? "",
    description: agent?.description ?? "",
    handle: agent?.handle ?? "",
    iconUrl: agent?.iconUrl ?? "",
    visibility: agent?.visibility ?? "private",
    modelName: agent?.modelName ?? "gpt_4o_mini",
    temperature: String(agent?.temperature ?? 0),
    promptType: agent?.promptType ?? "customer_support",
    systemPrompt: agent?.systemPrompt ?? "",
    userPrompt: agent?.userPrompt ?? "",
    promptTemplate: agent?.promptTemplate ?? "",
    datastoreIds: datastoreIdsOf(agent),
    useSuperRetrieval: agent?.useSuperRetrieval ?? false,
    retrieval: {
      generateQueryPrompt: text(retrieval.generateQueryPrompt),
      retrievalModelName: modelOrEmpty(retrieval.retrievalModelName),
      evaluatorPrompt: text(retrieval.evaluatorPrompt),
      evaluatorModelName: modelOrEmpty(retrieval.evaluatorModelName),
      retrievalRounds: numberText(retrieval.retrievalRounds),
      evaluationThreshold: numberText(retrieval.evaluationThreshold),
      generationModelName: modelOrEmpty(retrieval.generationModelName),
      fallbackModels: models(retrieval.fallbackModels),
      modelTemperatures: rows(retrieval.modelTemperatures),
      modelMaxTokens: rows(retrieval.modelMaxTokens),
      enableModelComparison: retrieval.enableModelComparison === true,
      comparisonModels: models(retrieval.comparisonModels),
      topP: numberText(additional.topP),
      topK: numberText(additional.topK),
      presencePenalty: numberText(additional.presencePenalty),
      frequencyPenalty: numberText(additional.frequencyPenalty),
      seed: numberText(additional.seed),
      stopSequences: Array.isArray(additional.stopSequences)
        ? additional.stopSequences.filter((item) => typeof item === "string").join("\n")
        : "",
      providerOptions: jsonText(additional.providerOptions),
    },
    useFollowUp: agent?.useFollowUp ?? false,
    followUp: {
      prompt: text(followUp.prompt),
      count: numberText(followUp.count),
      followUpDelayHours: numberText(followUp.followUpDelayHours),
      config: jsonText(followUp.config),
    },
    useConversationalMode: agent?.useConversationalMode ?? false,
    unavailableMessage: agent?.unavailableMessage ?? "",
    allowedOrigins: (agent?.allowedOrigins ?? []).join("\n"),
  };
}

function datastoreIdsOf(agent: Agent | null): string[] {
  return (agent?.tools ?? []).flatMap((tool) =>
    tool.type === "datastore" && tool.datastoreId ? [tool.datastoreId] : [],
  );
}

/** A mistake the form finds before sending: the field's label and what is wrong. */
export class FormValueError extends Error {
  constructor(
    readonly field: string,
    problem: string,
  ) {
    super(`${field} ${problem}.`);
  }
}

function parseJsonObject(value: string, field: string): Json | undefined {
  if (value.trim() === "") return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw new FormValueError(field, "is not valid JSON");
  }
  if (!isObject(parsed)) throw new FormValueError(field, "must be a JSON object: { … }");
  return parsed;
}

const numberOf = (value: string) => (value.trim() === "" ? undefined : Number(value));
const lines = (value: string) =>
  value
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean);
const perModel = (list: PerModelRow[]) => {
  const entries = list.filter((row) => row.value.trim() !== "");
  return entries.length > 0
    ? Object.fromEntries(entries.map((row) => [row.model, Number(row.value)]))
    : undefined;
};

/** The keys of `stored` the form does not edit: kept as they are. */
function otherKeys(stored: unknown, known: string[]): Json {
  if (!isObject(stored)) return {};
  return Object.fromEntries(Object.entries(stored).filter(([key]) => !known.includes(key)));
}

/** Drops the keys whose value is undefined, an empty string, an empty list or false. */
function compact(object: Json): Json {
  return Object.fromEntries(
    Object.entries(object).filter(
      ([, value]) =>
        value !== undefined &&
        value !== "" &&
        value !== false &&
        !(Array.isArray(value) && value.length === 0),
    ),
  );
}

function retrievalConfigOf(values: RetrievalValues, stored: Json): Json {
  const additional = {
    ...otherKeys(stored.additionalConfig, ADDITIONAL_KEYS),
    ...compact({
      topP: numberOf(values.topP),
      topK: numberOf(values.topK),
      presencePenalty: numberOf(values.presencePenalty),
      frequencyPenalty: numberOf(values.frequencyPenalty),
      seed: numberOf(values.seed),
      stopSequences: lines(values.stopSequences),
      providerOptions: parseJsonObject(values.providerOptions, "Provider options"),
    }),
  };
  return {
    ...otherKeys(stored, RETRIEVAL_KEYS),
    ...compact({
      generateQueryPrompt: values.generateQueryPrompt,
      retrievalModelName: values.retrievalModelName,
      evaluatorPrompt: values.evaluatorPrompt,
      evaluatorModelName: values.evaluatorModelName,
      retrievalRounds: numberOf(values.retrievalRounds),
      evaluationThreshold: numberOf(values.evaluationThreshold),
      generationModelName: values.generationModelName,
      fallbackModels: values.fallbackModels,
      modelTemperatures: perModel(values.modelTemperatures),
      modelMaxTokens: perModel(values.modelMaxTokens),
      enableModelComparison: values.enableModelComparison,
      comparisonModels: values.comparisonModels,
      additionalConfig: Object.keys(additional).length > 0 ? additional : undefined,
    }),
  };
}

function followUpConfigOf(values: FollowUpValues, stored: Json): Json {
  return {
    ...otherKeys(stored, FOLLOW_UP_KEYS),
    ...compact({
      prompt: values.prompt,
      count: numberOf(values.count),
      followUpDelayHours: numberOf(values.followUpDelayHours),
      config: parseJsonObject(values.config, "Follow-up settings (JSON)"),
    }),
  };
}

/** Every field of the body the form edits, as the API takes it. Throws FormValueError. */
function fullBodyOf(values: AgentFormValues, agent: Agent | null) {
  const blankToNull = (value: string) => (value.trim() === "" ? null : value.trim());
  return {
    name: values.name.trim(),
    description: values.description,
    handle: blankToNull(values.handle),
    iconUrl: blankToNull(values.iconUrl),
    visibility: values.visibility,
    modelName: values.modelName,
    temperature: Number(values.temperature || 0),
    promptType: values.promptType,
    systemPrompt: values.systemPrompt,
    userPrompt: values.userPrompt,
    promptTemplate: values.promptTemplate,
    datastoreIds: values.datastoreIds,
    useSuperRetrieval: values.useSuperRetrieval,
    retrievalEvaluationConfig: retrievalConfigOf(
      values.retrieval,
      agent?.retrievalEvaluationConfig ?? {},
    ),
    useFollowUp: values.useFollowUp,
    followUpConfig: followUpConfigOf(values.followUp, agent?.followUpConfig ?? {}),
    useConversationalMode: values.useConversationalMode,
    unavailableMessage: blankToNull(values.unavailableMessage),
    allowedOrigins: lines(values.allowedOrigins),
  } satisfies AgentBody;
}

/** JSON with the keys of every object sorted: two configs that say the same compare equal. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    isObject(item)
      ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => a.localeCompare(b)))
      : item,
  );
}

/**
 * The body of POST (no agent yet: every field) or PATCH (the fields that differ from the
 * agent's, so an unchanged setting never makes a version). Throws FormValueError.
 */
export function bodyOf(values: AgentFormValues, agent: null): AgentCreateBody;
export function bodyOf(values: AgentFormValues, agent: Agent | null): AgentBody;
export function bodyOf(values: AgentFormValues, agent: Agent | null): AgentBody {
  const full = fullBodyOf(values, agent);
  if (!agent) return full;
  const current: Record<keyof typeof full, unknown> = {
    ...agent,
    datastoreIds: datastoreIdsOf(agent),
  };
  return Object.fromEntries(
    Object.entries(full).filter(
      ([key, value]) => canonical(value) !== canonical(current[key as keyof typeof full]),
    ),
  ) as AgentBody;
}
