import { type LanguageModelMiddleware, wrapLanguageModel } from "ai";
import type { ModelRegistry } from "../models/model-registry.ts";
import type { LanguageModelStreamPart, LanguageModelUsageV3 } from "../models/model-types.ts";
import type { Metrics } from "./metrics.ts";

type Labels = { provider: string; model: string };

const secondsSince = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e9;

/** A middleware that records each call's duration and reported tokens under fixed labels. */
function callMetrics(metrics: Pick<Metrics, "modelCall">, labels: Labels): LanguageModelMiddleware {
  const record = (start: bigint, ok: boolean, usage: LanguageModelUsageV3 | undefined) =>
    metrics.modelCall({
      ...labels,
      seconds: secondsSince(start),
      ok,
      inputTokens: usage?.inputTokens.total ?? 0,
      outputTokens: usage?.outputTokens.total ?? 0,
    });
  return {
    specificationVersion: "v3",
    async wrapGenerate({ doGenerate }) {
      const start = process.hrtime.bigint();
      try {
        const result = await doGenerate();
        record(start, true, result.usage);
        return result;
      } catch (error) {
        record(start, false, undefined);
        throw error;
      }
    },
    async wrapStream({ doStream }) {
      const start = process.hrtime.bigint();
      let result: Awaited<ReturnType<typeof doStream>>;
      try {
        result = await doStream();
      } catch (error) {
        record(start, false, undefined);
        throw error;
      }
      let usage: LanguageModelUsageV3 | undefined;
      let ok = true;
      const observed = new TransformStream<LanguageModelStreamPart, LanguageModelStreamPart>({
        transform(part, controller) {
          if (part.type === "finish") usage = part.usage;
          else if (part.type === "error") ok = false;
          controller.enqueue(part);
        },
        flush: () => record(start, ok, usage),
      });
      return { ...result, stream: result.stream.pipeThrough(observed) };
    },
  };
}

/**
 * The registry with every language model it resolves measured: the follow-up model and agents'
 * models alike. Labels are the resolved provider (a catalog provider, `openai-compatible` or
 * `offline`) and the catalog model name, both from fixed lists.
 */
export function instrumentModels(
  registry: ModelRegistry,
  metrics: Pick<Metrics, "modelCall">,
): ModelRegistry {
  const middlewares = new Map<string, LanguageModelMiddleware>();
  return {
    ...registry,
    resolveLanguageModel(requestedModelName, hints) {
      const resolved = registry.resolveLanguageModel(requestedModelName, hints);
      const key = `${resolved.provider} ${resolved.modelName}`;
      let middleware = middlewares.get(key);
      if (!middleware) {
        middleware = callMetrics(metrics, {
          provider: resolved.provider,
          model: resolved.modelName,
        });
        middlewares.set(key, middleware);
      }
      return { ...resolved, model: wrapLanguageModel({ model: resolved.model, middleware }) };
    },
  };
}
