import { z } from "zod";
import {
  AGENT_MODEL_NAMES,
  type ConcreteModelName,
  type ModelCatalog,
  type ModelCatalogEntry,
  PROVIDER_NAMES,
} from "./model-catalog.ts";
import { ModelConfigError } from "./model-errors.ts";

const CONCRETE_MODEL_NAMES = AGENT_MODEL_NAMES.filter(
  (name): name is ConcreteModelName => name !== "model_route",
);

const credits = z.number().finite().nonnegative();

const overrideEntrySchema = z
  .strictObject({
    provider: z.enum(PROVIDER_NAMES).optional(),
    providerModelId: z.string().trim().min(1).optional(),
    inputCreditsPerMillion: credits.optional(),
    outputCreditsPerMillion: credits.optional(),
  })
  .refine((value) => value.provider === undefined || value.providerModelId !== undefined, {
    message: "a new provider needs its own providerModelId",
    path: ["providerModelId"],
  });

/** The MODELS_FILE format: per concrete modelName, the fields of its catalog entry to replace. */
const modelCatalogOverridesSchema = z.strictObject(
  Object.fromEntries(
    CONCRETE_MODEL_NAMES.map((name) => [name, overrideEntrySchema.optional()]),
  ) as Record<ConcreteModelName, z.ZodOptional<typeof overrideEntrySchema>>,
);

export type ModelCatalogOverrides = z.infer<typeof modelCatalogOverridesSchema>;

function describeIssue(issue: z.core.$ZodIssue): string {
  const where = issue.path.length > 0 ? issue.path.join(".") : "(top level)";
  if (issue.code === "unrecognized_keys") {
    if (issue.path.length === 0) {
      const routeHint = issue.keys.includes("model_route")
        ? "; model_route is a routing rule, override gpt_41_mini or gpt_41 instead"
        : "";
      return `unknown model name ${issue.keys.map((key) => `"${key}"`).join(", ")} (valid: ${CONCRETE_MODEL_NAMES.join(", ")})${routeHint}`;
    }
    return `${where}: unknown field ${issue.keys.map((key) => `"${key}"`).join(", ")} (valid: provider, providerModelId, inputCreditsPerMillion, outputCreditsPerMillion)`;
  }
  if (issue.code === "invalid_value" && issue.path.at(-1) === "provider") {
    return `${where}: must be one of ${PROVIDER_NAMES.join(", ")}`;
  }
  return `${where}: ${issue.message}`;
}

/** Validates parsed MODELS_FILE content; the error message lists every problem with its path. */
export function parseModelCatalogOverrides(
  input: unknown,
  sourceName = "MODELS_FILE",
): ModelCatalogOverrides {
  const parsed = modelCatalogOverridesSchema.safeParse(input);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map(describeIssue);
  throw new ModelConfigError(`${sourceName} is invalid: ${problems.join("; ")}`);
}

/** Parses the text of a MODELS_FILE (JSON) and validates it. */
export function parseModelCatalogOverridesJson(
  text: string,
  sourceName = "MODELS_FILE",
): ModelCatalogOverrides {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ModelConfigError(`${sourceName} is not valid JSON`);
  }
  return parseModelCatalogOverrides(json, sourceName);
}

/** The catalog with every override applied field by field. */
export function applyModelCatalogOverrides(
  catalog: ModelCatalog,
  overrides: ModelCatalogOverrides,
): ModelCatalog {
  const merged = { ...catalog } as Record<ConcreteModelName, ModelCatalogEntry>;
  for (const name of CONCRETE_MODEL_NAMES) {
    const override = overrides[name];
    if (override) merged[name] = { ...catalog[name], ...stripUndefined(override) };
  }
  return merged;
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(value).filter(([, field]) => field !== undefined),
  ) as Partial<T>;
}
