import { describe, expect, test } from "vitest";
import { z } from "zod";
import {
  AGENT_MODEL_NAMES,
  DEFAULT_MODEL_CATALOG,
  PROVIDER_NAMES,
} from "../../src/models/model-catalog.ts";
import { ModelConfigError, ModelUnavailableError } from "../../src/models/model-errors.ts";
import type { ModelCatalogOverrides } from "../../src/models/model-overrides.ts";
import { parseModelCatalogOverridesJson } from "../../src/models/model-overrides.ts";
import { createModelRegistry, parseModelSpec } from "../../src/models/model-registry.ts";

const SPEC_MODEL_NAMES =
  "gpt_4o, gpt_4o_mini, gpt_41, gpt_41_mini, gpt_41_nano, claude_3_7_sonnet, claude_4_sonnet, gemini_2_5_flash, gemini_2_5_pro, grok_3, grok_3_beta, grok_3_fast_beta, grok_3_mini_beta, grok_3_mini_fast_beta, sonar_pro, sonar, llama_3_3_70b, llama_4_maverick_17b, model_route".split(
    ", ",
  );

const allKeys = Object.fromEntries(PROVIDER_NAMES.map((provider) => [provider, `key-${provider}`]));

describe("model catalog", () => {
  test("lists exactly the spec's modelName enum, usable by zod", () => {
    expect([...AGENT_MODEL_NAMES]).toEqual(SPEC_MODEL_NAMES);
    const schema = z.enum(AGENT_MODEL_NAMES);
    expect(schema.parse("gpt_41")).toBe("gpt_41");
    expect(schema.safeParse("gpt_5").success).toBe(false);
  });

  test("prices every concrete model with non-negative credits", () => {
    for (const name of SPEC_MODEL_NAMES.filter((candidate) => candidate !== "model_route")) {
      const entry = DEFAULT_MODEL_CATALOG[name as keyof typeof DEFAULT_MODEL_CATALOG];
      expect(entry, name).toBeDefined();
      expect(entry.inputCreditsPerMillion).toBeGreaterThan(0);
      expect(entry.outputCreditsPerMillion).toBeGreaterThanOrEqual(entry.inputCreditsPerMillion);
    }
  });
});

describe("resolveLanguageModel", () => {
  test("resolves every spec model name to its provider when every key is set", () => {
    const registry = createModelRegistry({ providerKeys: allKeys });
    for (const name of AGENT_MODEL_NAMES) {
      const resolved = registry.resolveLanguageModel(name);
      expect(resolved.offline, name).toBe(false);
      expect(resolved.requestedModelName).toBe(name);
      expect(resolved.model.specificationVersion).toBe("v3");
      expect(resolved.model.modelId).toBe(resolved.providerModelId);
      const entry = DEFAULT_MODEL_CATALOG[resolved.modelName];
      expect(resolved.provider).toBe(entry.provider);
      expect(resolved.prices).toEqual({
        input: entry.inputCreditsPerMillion,
        output: entry.outputCreditsPerMillion,
      });
    }
  });

  test("builds each provider's own AI SDK model (OpenAI through chat completions)", () => {
    const registry = createModelRegistry({ providerKeys: allKeys });
    const providerOf = (name: (typeof AGENT_MODEL_NAMES)[number]) =>
      registry.resolveLanguageModel(name).model.provider;
    expect(providerOf("gpt_4o")).toBe("openai.chat");
    expect(providerOf("claude_4_sonnet")).toBe("anthropic.messages");
    expect(providerOf("gemini_2_5_pro")).toBe("google.generative-ai");
    expect(providerOf("grok_3")).toBe("xai.chat");
    expect(providerOf("sonar_pro")).toBe("perplexity");
    expect(providerOf("llama_3_3_70b")).toBe("groq.chat");
  });

  test("falls back to the offline responder, free of charge, for a provider without a key", () => {
    const registry = createModelRegistry({ providerKeys: { openai: "sk-test" } });
    const claude = registry.resolveLanguageModel("claude_4_sonnet");
    expect(claude).toMatchObject({
      modelName: "claude_4_sonnet",
      provider: "local",
      providerModelId: "local-extractive",
      prices: { input: 0, output: 0 },
      offline: true,
    });
    expect(claude.model.modelId).toBe("local-extractive");
    expect(registry.resolveLanguageModel("gpt_4o").offline).toBe(false);
  });

  test("treats a blank key as no key", () => {
    const registry = createModelRegistry({ providerKeys: { openai: "  " } });
    expect(registry.resolveLanguageModel("gpt_4o").offline).toBe(true);
    expect(registry.hasCredentials("openai")).toBe(false);
  });

  test("sends every model to LLM_BASE_URL when it is set, keys or not", () => {
    const registry = createModelRegistry({
      providerKeys: { anthropic: "key" },
      llmBaseUrl: "http://127.0.0.1:9/v1",
    });
    for (const name of AGENT_MODEL_NAMES) {
      const resolved = registry.resolveLanguageModel(name);
      expect(resolved.provider).toBe("openai-compatible");
      expect(resolved.offline).toBe(false);
      expect(resolved.model.provider).toBe("openai-compatible.chat");
    }
    expect(registry.resolveLanguageModel("claude_4_sonnet").providerModelId).toBe(
      "claude-sonnet-4-20250514",
    );
  });

  test("rejects a model name outside the enum with the valid list", () => {
    const registry = createModelRegistry({ providerKeys: {} });
    expect(() => registry.resolveLanguageModel("gpt_5" as "gpt_4o")).toThrow(
      /Unknown model name "gpt_5" \(valid: gpt_4o, .*model_route\)/,
    );
  });
});

describe("model_route", () => {
  test("sends short prompts to gpt_41_mini and long ones to gpt_41 when OpenAI has a key", () => {
    const registry = createModelRegistry({ providerKeys: { openai: "sk" } });
    expect(registry.resolveLanguageModel("model_route").modelName).toBe("gpt_41_mini");
    expect(registry.resolveLanguageModel("model_route", { promptTokens: 3999 }).modelName).toBe(
      "gpt_41_mini",
    );
    const long = registry.resolveLanguageModel("model_route", { promptTokens: 4000 });
    expect(long).toMatchObject({
      modelName: "gpt_41",
      requestedModelName: "model_route",
      providerModelId: "gpt-4.1",
      offline: false,
    });
  });

  test("picks the first model of the tier whose provider has a key", () => {
    const registry = createModelRegistry({ providerKeys: { anthropic: "key" } });
    expect(registry.resolveLanguageModel("model_route").modelName).toBe("claude_4_sonnet");
    const geminiOnly = createModelRegistry({ providerKeys: { google: "key" } });
    expect(geminiOnly.resolveLanguageModel("model_route", { promptTokens: 9000 }).modelName).toBe(
      "gemini_2_5_pro",
    );
  });

  test("follows overrides that move a tier model to a provider with a key", () => {
    const registry = createModelRegistry({
      providerKeys: { deepseek: "key" },
      overrides: { gpt_41_mini: { provider: "deepseek", providerModelId: "deepseek-chat" } },
    });
    const resolved = registry.resolveLanguageModel("model_route");
    expect(resolved).toMatchObject({
      modelName: "gpt_41_mini",
      provider: "deepseek",
      providerModelId: "deepseek-chat",
    });
  });

  test("runs offline on the first model of the tier when no provider has a key", () => {
    const registry = createModelRegistry({ providerKeys: {} });
    const resolved = registry.resolveLanguageModel("model_route");
    expect(resolved).toMatchObject({ modelName: "gpt_41_mini", offline: true });
  });
});

describe("MODELS_FILE overrides", () => {
  test("replaces provider, model id and prices per model name", () => {
    const overrides = parseModelCatalogOverridesJson(
      JSON.stringify({
        gpt_4o: { providerModelId: "gpt-4o-2024-11-20", inputCreditsPerMillion: 5 },
        sonar: { provider: "openai", providerModelId: "gpt-4.1-nano" },
      }),
    );
    const registry = createModelRegistry({ providerKeys: { openai: "sk" }, overrides });
    expect(registry.resolveLanguageModel("gpt_4o")).toMatchObject({
      provider: "openai",
      providerModelId: "gpt-4o-2024-11-20",
      prices: { input: 5, output: 10 },
    });
    expect(registry.resolveLanguageModel("sonar")).toMatchObject({
      provider: "openai",
      providerModelId: "gpt-4.1-nano",
      offline: false,
    });
    expect(registry.priceOf("openai", "gpt-4o-2024-11-20")).toEqual({ input: 5, output: 10 });
  });

  test.each([
    ["{", /MODELS_FILE is not valid JSON/],
    ["[]", /MODELS_FILE is invalid: \(top level\): Invalid input: expected object/],
    ['{"gpt_5": {}}', /unknown model name "gpt_5" \(valid: gpt_4o, /],
    ['{"model_route": {}}', /model_route is a routing rule/],
    ['{"gpt_4o": {"cost": 1}}', /gpt_4o: unknown field "cost"/],
    [
      '{"gpt_4o": {"provider": "azure", "providerModelId": "x"}}',
      /gpt_4o\.provider: must be one of openai, anthropic/,
    ],
    [
      '{"gpt_4o": {"provider": "deepseek"}}',
      /gpt_4o\.providerModelId: a new provider needs its own providerModelId/,
    ],
    ['{"gpt_4o": {"inputCreditsPerMillion": -1}}', /gpt_4o\.inputCreditsPerMillion: Too small/],
    ['{"gpt_4o": {"providerModelId": ""}}', /gpt_4o\.providerModelId: Too small/],
  ])("rejects %s with a message naming the problem", (text, message) => {
    expect(() => parseModelCatalogOverridesJson(text)).toThrow(ModelConfigError);
    expect(() => parseModelCatalogOverridesJson(text)).toThrow(message);
  });

  test("validates overrides handed straight to the registry", () => {
    const bad = {
      gpt_4o: { outputCreditsPerMillion: "cheap" },
    } as unknown as ModelCatalogOverrides;
    expect(() => createModelRegistry({ providerKeys: {}, overrides: bad })).toThrow(
      /MODELS_FILE is invalid: gpt_4o\.outputCreditsPerMillion: Invalid input: expected number/,
    );
  });
});

describe("priceOf and describe", () => {
  const registry = createModelRegistry({ providerKeys: { openai: "sk" } });

  test("prices catalog models, the usage endpoint's provider names and the offline responder", () => {
    expect(registry.priceOf("openai", "gpt-4.1-mini")).toEqual({ input: 0.4, output: 1.6 });
    expect(registry.priceOf("azure", "gpt-4o-mini")).toEqual({ input: 0.15, output: 0.6 });
    expect(registry.priceOf("azure-2", "gpt-5-nano")).toEqual({ input: 0.05, output: 0.4 });
    expect(registry.priceOf("gemini", "gemini-2.5-pro")).toEqual({ input: 1.25, output: 10 });
    expect(registry.priceOf("deepseek", "DeepSeek-V3.2")).toEqual({ input: 0.28, output: 0.42 });
    expect(registry.priceOf("bedrock", "claude-4-sonnet")).toEqual({ input: 3, output: 15 });
    expect(registry.priceOf("local", "local-extractive")).toEqual({ input: 0, output: 0 });
    expect(registry.priceOf("openai-compatible", "gpt-4o")).toEqual({ input: 2.5, output: 10 });
    expect(registry.priceOf("openai", "no-such-model")).toBeUndefined();
  });

  test("describes every model name with what it resolves to now", () => {
    const rows = registry.describe();
    expect(rows.map((row) => row.modelName)).toEqual([...AGENT_MODEL_NAMES]);
    expect(rows.find((row) => row.modelName === "gpt_4o")).toMatchObject({
      provider: "openai",
      providerModelId: "gpt-4o",
      offline: false,
    });
    expect(rows.find((row) => row.modelName === "grok_3")).toMatchObject({
      provider: "local",
      providerModelId: "local-extractive",
      offline: true,
    });
    expect(rows.find((row) => row.modelName === "model_route")?.route).toEqual({
      shortPrompt: "gpt_41_mini",
      longPrompt: "gpt_41",
      longPromptTokens: 4000,
    });
  });
});

describe("embedding and transcription specs", () => {
  test("parses provider:model specs and rejects malformed ones", () => {
    expect(parseModelSpec("openai:text-embedding-3-small")).toEqual({
      provider: "openai",
      modelId: "text-embedding-3-small",
    });
    expect(parseModelSpec("groq:whisper-large-v3:turbo").modelId).toBe("whisper-large-v3:turbo");
    for (const spec of ["whisper-1", ":whisper-1", "openai:", "azure:whisper-1"]) {
      expect(() => parseModelSpec(spec), spec).toThrow(ModelConfigError);
    }
  });

  test("names the missing key when a provider has none", () => {
    const registry = createModelRegistry({ providerKeys: {} });
    expect(() => registry.resolveEmbeddingModel("openai:text-embedding-3-small")).toThrow(
      new ModelUnavailableError(
        "Embedding model openai:text-embedding-3-small needs OPENAI_API_KEY, which is not set",
      ),
    );
    expect(() => registry.resolveTranscriptionModel("openai:whisper-1")).toThrow(
      /Transcription model openai:whisper-1 needs OPENAI_API_KEY/,
    );
    expect(() => registry.resolveEmbeddingModel("anthropic:none")).toThrow(
      /anthropic offers no embedding model/,
    );
  });

  test("builds models for providers that have them", () => {
    const registry = createModelRegistry({ providerKeys: { openai: "sk", groq: "gk" } });
    const embedding = registry.resolveEmbeddingModel("openai:text-embedding-3-small");
    expect(embedding.modelId).toBe("text-embedding-3-small");
    expect(embedding.provider).toBe("openai.embedding");
    const whisper = registry.resolveTranscriptionModel("groq:whisper-large-v3");
    expect(whisper.provider).toBe("groq.transcription");
    const local = createModelRegistry({ providerKeys: {}, llmBaseUrl: "http://127.0.0.1:9/v1" });
    expect(local.resolveEmbeddingModel("openai:nomic-embed-text").provider).toBe(
      "openai-compatible.embedding",
    );
  });
});
