import type { ModelPrice } from "../../models/model-prices.ts";
import type { ChargeRequest } from "./billing-port.ts";
import { MICRO_PER_CREDIT } from "./credits.ts";

/** The registry's lookup: credits per million input/output tokens, undefined when unknown. */
export type PriceOf = (provider: string, providerModelId: string) => ModelPrice | undefined;

// Models the registry does not price because no agent answers with them: embedding models
// (credits per million input tokens) and speech-to-text (credits per unit, a unit being one
// second of audio). USD list prices, one credit = one dollar, like docs/models.md.
const EMBEDDING_PRICES: ReadonlyMap<string, ModelPrice> = new Map([
  ["openai:text-embedding-3-small", { input: 0.02, output: 0 }],
  ["openai:text-embedding-3-large", { input: 0.13, output: 0 }],
  ["openai:text-embedding-ada-002", { input: 0.1, output: 0 }],
  ["google:gemini-embedding-001", { input: 0.15, output: 0 }],
]);

const PER_SECOND_PRICES: ReadonlyMap<string, number> = new Map([
  ["openai:whisper-1", 0.006 / 60],
  ["openai:gpt-4o-transcribe", 0.006 / 60],
  ["openai:gpt-4o-mini-transcribe", 0.003 / 60],
  ["groq:whisper-large-v3", 0.111 / 3600],
  ["groq:whisper-large-v3-turbo", 0.04 / 3600],
]);

export type UsagePrice = {
  /** Price of the tokens and units before the coefficient, in micro-credits. */
  rawMicro: number;
  /** Raw times the coefficient, in micro-credits. */
  requestedMicro: number;
  coefficient: number;
  /** False when no table knows the model: it is recorded at 0 credits and reported. */
  priced: boolean;
};

type PricedUsage = Pick<
  ChargeRequest,
  "provider" | "modelName" | "inputTokens" | "outputTokens" | "units" | "coefficient"
>;

/** Prices usage with the registry's agent model prices plus billing's embedding/audio tables. */
export function createUsagePricer(priceOf: PriceOf) {
  return function priceUsage(usage: PricedUsage): UsagePrice {
    const key = `${usage.provider.toLowerCase()}:${usage.modelName.toLowerCase()}`;
    const tokenPrice = priceOf(usage.provider, usage.modelName) ?? EMBEDDING_PRICES.get(key);
    const perUnit = PER_SECOND_PRICES.get(key);
    const coefficient = usage.coefficient ?? 1;
    if (tokenPrice === undefined && perUnit === undefined) {
      return { rawMicro: 0, requestedMicro: 0, coefficient, priced: false };
    }
    // A price "per million tokens" in credits is exactly a price per token in micro-credits.
    const tokenMicro = tokenPrice
      ? usage.inputTokens * tokenPrice.input + usage.outputTokens * tokenPrice.output
      : 0;
    const unitMicro = perUnit !== undefined ? (usage.units ?? 0) * perUnit * MICRO_PER_CREDIT : 0;
    const rawMicro = Math.round(tokenMicro + unitMicro);
    return {
      rawMicro,
      requestedMicro: Math.round(rawMicro * coefficient),
      coefficient,
      priced: true,
    };
  };
}
