import type { AgentRow } from "../agents/agent-repo.ts";
import type { OpenedKnowledge } from "./query-knowledge.ts";
import type { PromptType } from "./query-prompt.ts";
import type { PromptBudgets } from "./usage-bound.ts";

/** How both answer paths answer: budgets, retrieval, the model's limits (querySettingsOf). */
export type QuerySettings = PromptBudgets & {
  knowledgeTopK: number;
  knowledgeMinRelevance: number;
  modelTimeoutMs: number;
  modelMaxRetries: number;
  /** Most tokens the model may write per step. */
  maxOutputTokens: number;
  /** How long credits reserved for an answer are held at most (its time bounds, and a margin). */
  reservationHoldMs: number;
};

/** What a request (or a batching window) may change of the agent's prompt for one answer. */
export type PromptOverrides = {
  /** Replaces the agent's system prompt; "" means no override. */
  systemPrompt?: string;
  promptType?: PromptType;
};

export type HistoryMessage = { from: "human" | "agent"; text: string };

/** What a request may change of how the model writes one answer (the OpenAI-compatible API). */
export type Sampling = {
  /** Replaces the agent's temperature. */
  temperature?: number;
  /** Lowers the configured most tokens per step; a larger value changes nothing. */
  maxOutputTokens?: number;
};

export type AnswerRequest = {
  agent: AgentRow;
  overrides: PromptOverrides;
  /** The customer's turn: one query, or the messages of a window combined. */
  query: string;
  context?: string;
  /** The customer asked for a person in this turn. */
  humanRequested: boolean;
  /** The agent's datastores, ready to search; null when it has none (or none can be searched). */
  knowledge: OpenedKnowledge | null;
  /** Oldest first; read alongside retrieval and attachments when given as a promise. */
  history: Promise<readonly HistoryMessage[]> | readonly HistoryMessage[];
  attachmentUrls: string[];
  sampling?: Sampling;
  /**
   * Someone without a key reads the answer (a visitor of the public chat, a messaging channel's
   * customer): an offline answer then says nothing of how to configure a model.
   */
  publicAudience?: boolean;
};
