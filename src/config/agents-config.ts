import { z } from "zod";
import { intVar } from "./env-types.ts";

// Token budgets are estimates (characters / 4, see src/models/token-estimate.ts): no tokenizer
// ships with the service.
export const agentsEnvSchema = z.object({
  QUERY_HISTORY_TOKEN_BUDGET: intVar(4_000, 0, 1_000_000).describe(
    "Most tokens of earlier messages (of the last 24) sent with a query",
  ),
  QUERY_KNOWLEDGE_TOP_K: intVar(8, 1, 100).describe("Passages asked from the knowledge search"),
  QUERY_KNOWLEDGE_TOKEN_BUDGET: intVar(3_000, 0, 1_000_000).describe(
    "Most tokens of retrieved passages put in the prompt",
  ),
  QUERY_KNOWLEDGE_MIN_RELEVANCE: z.coerce
    .number()
    .min(0)
    .max(1)
    .default(0.5)
    .describe("Passages scoring below this fraction of the best passage are dropped"),
  ATTACHMENT_MAX_BYTES: intVar(10 * 1024 * 1024, 1_024, 100 * 1024 * 1024),
  ATTACHMENT_TIMEOUT_MS: intVar(15_000, 100, 120_000),
  ATTACHMENT_TOKEN_BUDGET: intVar(6_000, 100, 1_000_000).describe(
    "Most tokens of attachment text added to one user message",
  ),
  SSE_PING_INTERVAL_MS: intVar(15_000, 10, 600_000).describe(
    "Comment frames that keep a quiet stream open through proxies",
  ),
  QUERY_ANONYMOUS_RATE_LIMIT_PER_MINUTE: intVar(20, 1, 1_000_000).describe(
    "query-agent messages without an API key allowed per minute per visitorId",
  ),
  QUERY_ANONYMOUS_IP_RATE_LIMIT_PER_MINUTE: intVar(60, 1, 1_000_000).describe(
    "query-agent messages without an API key allowed per minute per client IP",
  ),
  QUERY_ANONYMOUS_CONVERSATIONS_PER_AGENT_PER_HOUR: intVar(1_000, 1, 1_000_000).describe(
    "Conversations query-agent may start without an API key per agent per hour, all visitors together",
  ),
});

export function agentsConfig(env: z.output<typeof agentsEnvSchema>) {
  return {
    historyTokenBudget: env.QUERY_HISTORY_TOKEN_BUDGET,
    knowledgeTopK: env.QUERY_KNOWLEDGE_TOP_K,
    knowledgeTokenBudget: env.QUERY_KNOWLEDGE_TOKEN_BUDGET,
    knowledgeMinRelevance: env.QUERY_KNOWLEDGE_MIN_RELEVANCE,
    attachments: {
      maxBytes: env.ATTACHMENT_MAX_BYTES,
      timeoutMs: env.ATTACHMENT_TIMEOUT_MS,
      tokenBudget: env.ATTACHMENT_TOKEN_BUDGET,
    },
    ssePingIntervalMs: env.SSE_PING_INTERVAL_MS,
    anonymousLimits: {
      perVisitorPerMinute: env.QUERY_ANONYMOUS_RATE_LIMIT_PER_MINUTE,
      perIpPerMinute: env.QUERY_ANONYMOUS_IP_RATE_LIMIT_PER_MINUTE,
      newConversationsPerAgentPerHour: env.QUERY_ANONYMOUS_CONVERSATIONS_PER_AGENT_PER_HOUR,
    },
  };
}

export type AgentsConfig = ReturnType<typeof agentsConfig>;
