import { ModelProviderError } from "../../models/model-failure.ts";
import type { ResolvedLanguageModel } from "../../models/model-registry.ts";
import type { SuperRetrievalSettings } from "../agents/retrieval-evaluation-config.ts";
import type { Passage } from "../knowledge/knowledge-search.ts";
import { type CallTuning, callModel, type MeteredCall, tuningFor } from "./model-calls.ts";

// The reciprocal-rank constant for fusing the result lists of several queries (Cormack et al.).
const QUERY_FUSION_K = 60;
// Most alternative queries taken from one answer of the query model.
const MAX_GENERATED_QUERIES = 5;
// Output bound of the query and evaluation calls when `modelMaxTokens` names no other.
const HELPER_MAX_OUTPUT_TOKENS = 512;
// What the evaluator reads of one passage, and of the conversation before the question.
const EVALUATED_PASSAGE_CHARS = 2_000;
const HISTORY_MESSAGES_SHOWN = 6;
const HISTORY_MESSAGE_CHARS = 500;
/** Fewer passages than this at or above the threshold start another round. */
const ENOUGH_PASSAGES = 1;

export type SuperRetrievalInput = {
  question: string;
  history: ReadonlyArray<{ from: "human" | "agent"; text: string }>;
  /** Searches the agent's datastores for one query. */
  search(query: string, topK: number): Promise<Passage[]>;
  topK: number;
  settings: SuperRetrievalSettings;
  retrievalModel: ResolvedLanguageModel;
  evaluatorModel: ResolvedLanguageModel;
  timeoutMs: number;
  maxRetries: number;
  /** Told about a helper call that failed; retrieval goes on without it. */
  onFailure(step: MeteredCall["step"], error: ModelProviderError): void;
};

export type SuperRetrievalResult = {
  /** Passages the evaluator kept, best score first (their `score` is the evaluator's). */
  passages: Passage[];
  calls: MeteredCall[];
  /** What happened, stored with the answer. */
  trace: { rounds: number; queries: string[]; evaluated: number; kept: number };
};

function historyText(history: SuperRetrievalInput["history"]): string {
  return history
    .slice(-HISTORY_MESSAGES_SHOWN)
    .map(
      (message) =>
        `${message.from === "human" ? "Customer" : "Agent"}: ${message.text.slice(0, HISTORY_MESSAGE_CHARS)}`,
    )
    .join("\n");
}

/** The queries of one answer of the query model: one per line, list markers and quotes removed. */
function parseQueries(text: string, known: ReadonlySet<string>): string[] {
  const queries: string[] = [];
  for (const line of text.split("\n")) {
    const query = line
      .replace(/^\s*(?:[-*•]|\d+[.)])\s*/, "")
      .replace(/^["'“”]+|["'“”]+$/g, "")
      .trim();
    const key = query.toLowerCase();
    if (query === "" || query.length > 500 || known.has(key)) continue;
    if (queries.some((taken) => taken.toLowerCase() === key)) continue;
    queries.push(query);
    if (queries.length === MAX_GENERATED_QUERIES) break;
  }
  return queries;
}

/** The evaluator's scores by passage number (1-based), clamped to 0..1; lines it cannot read are skipped. */
function parseScores(text: string): Map<number, number> {
  const scores = new Map<number, number>();
  for (const match of text.matchAll(/^\D*?(\d+)\s*\]?\s*[:=\-–]\s*(\d*\.?\d+)/gm)) {
    const index = Number(match[1]);
    const score = Number(match[2]);
    if (Number.isFinite(score)) scores.set(index, Math.min(1, Math.max(0, score)));
  }
  return scores;
}

/** Reciprocal-rank fusion of the result lists of several queries, one entry per chunk. */
function fuse(lists: readonly Passage[][]): Passage[] {
  const fused = new Map<string, { passage: Passage; score: number }>();
  for (const list of lists) {
    list.forEach((passage, rank) => {
      const entry = fused.get(passage.chunkId) ?? { passage, score: 0 };
      entry.score += 1 / (QUERY_FUSION_K + rank + 1);
      fused.set(passage.chunkId, entry);
    });
  }
  return [...fused.values()]
    .sort((left, right) => right.score - left.score)
    .map((entry) => entry.passage);
}

/**
 * Super retrieval: the query model writes other queries for the question, each is searched and
 * the lists fused, the evaluator scores the passages not scored yet and those under the threshold
 * are dropped; while fewer than ENOUGH_PASSAGES remain, another round asks for new queries, up to
 * `retrievalRounds`. A failed query call leaves the question alone; a failed evaluation keeps the
 * fused passages unscored and ends the rounds.
 */
export async function superRetrieve(input: SuperRetrievalInput): Promise<SuperRetrievalResult> {
  const { settings } = input;
  const calls: MeteredCall[] = [];
  const tried = new Set<string>();
  const queries: string[] = [];
  const scored = new Map<string, { passage: Passage; score: number }>();
  const helperTuning = (resolved: ResolvedLanguageModel): CallTuning =>
    tuningFor(settings, resolved, { temperature: 0, maxOutputTokens: HELPER_MAX_OUTPUT_TOKENS });
  const kept = () =>
    [...scored.values()]
      .filter((entry) => entry.score >= settings.evaluationThreshold)
      .sort((left, right) => right.score - left.score)
      .map((entry) => ({ ...entry.passage, score: entry.score }));
  const trace = (rounds: number) => ({
    rounds,
    queries,
    evaluated: scored.size,
    kept: kept().length,
  });

  async function helper(
    step: MeteredCall["step"],
    resolved: ResolvedLanguageModel,
    system: string,
    prompt: string,
  ) {
    const result = await callModel({
      resolved,
      system,
      prompt,
      tuning: helperTuning(resolved),
      timeoutMs: input.timeoutMs,
      maxRetries: input.maxRetries,
    });
    calls.push({
      feature: "super_retrieval",
      step,
      resolved,
      inputTokens: result.inputTokens,
      outputTokens: result.outputTokens,
      usageEstimated: result.usageEstimated,
    });
    return result.text;
  }

  async function generateQueries(round: number): Promise<string[]> {
    const conversation = historyText(input.history);
    const prompt = [
      conversation ? `Conversation so far:\n${conversation}` : "",
      `Question: ${input.question}`,
      round > 1
        ? `These queries found too little that helps; write different ones:\n${queries.map((query) => `- ${query}`).join("\n")}`
        : "",
    ]
      .filter((part) => part !== "")
      .join("\n\n");
    try {
      const text = await helper(
        "generate_queries",
        input.retrievalModel,
        settings.generateQueryPrompt,
        prompt,
      );
      return parseQueries(text, tried);
    } catch (error) {
      if (!(error instanceof ModelProviderError)) throw error;
      input.onFailure("generate_queries", error);
      return [];
    }
  }

  async function evaluate(passages: Passage[]): Promise<Map<number, number> | null> {
    const prompt = [
      `Question: ${input.question}`,
      "Passages:",
      ...passages.map(
        (passage, index) =>
          `<passage number="${index + 1}">\n${passage.text.slice(0, EVALUATED_PASSAGE_CHARS)}\n</passage>`,
      ),
    ].join("\n\n");
    try {
      const scores = parseScores(
        await helper("evaluate", input.evaluatorModel, settings.evaluatorPrompt, prompt),
      );
      return scores.size > 0 ? scores : null;
    } catch (error) {
      if (!(error instanceof ModelProviderError)) throw error;
      input.onFailure("evaluate", error);
      return null;
    }
  }

  for (let round = 1; round <= settings.retrievalRounds; round += 1) {
    const generated = await generateQueries(round);
    const roundQueries = round === 1 ? [input.question, ...generated] : generated;
    if (roundQueries.length === 0) return { passages: kept(), calls, trace: trace(round - 1) };
    for (const query of roundQueries) {
      tried.add(query.toLowerCase());
      queries.push(query);
    }
    const lists = await Promise.all(roundQueries.map((query) => input.search(query, input.topK)));
    const fresh = fuse(lists)
      .filter((passage) => !scored.has(passage.chunkId))
      .slice(0, input.topK);
    if (fresh.length > 0) {
      const scores = await evaluate(fresh);
      if (!scores) {
        // Unscored: the fused order stands, after anything the evaluator already kept.
        return { passages: [...kept(), ...fresh], calls, trace: trace(round) };
      }
      fresh.forEach((passage, index) => {
        scored.set(passage.chunkId, { passage, score: scores.get(index + 1) ?? 0 });
      });
    }
    if (kept().length >= ENOUGH_PASSAGES) {
      return { passages: kept(), calls, trace: trace(round) };
    }
  }
  return { passages: kept(), calls, trace: trace(settings.retrievalRounds) };
}
