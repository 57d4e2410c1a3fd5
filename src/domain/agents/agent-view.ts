import type { AgentTool } from "../../db/schema/index.ts";
import type { AgentModelName } from "../../models/model-catalog.ts";
import type { AgentRow } from "./agent-repo.ts";

/** The spec's Agent object, plus the extension fields of docs/contracts.md. */
export type AgentView = {
  id: string;
  name: string;
  description: string;
  modelName: AgentModelName;
  temperature: number;
  visibility: "public" | "private";
  systemPrompt: string;
  userPrompt: string;
  handle: string | null;
  iconUrl: string | null;
  useSuperRetrieval: boolean;
  useFollowUp: boolean;
  useConversationalMode: boolean;
  promptType: "raw" | "customer_support";
  promptTemplate: string;
  retrievalEvaluationConfig: Record<string, unknown>;
  followUpConfig: Record<string, unknown>;
  tools: AgentTool[];
  /** Origins allowed to use the public chat; empty means any. */
  allowedOrigins: string[];
  /** Sent on messaging channels instead of an answer that cannot be given; null: nothing. */
  unavailableMessage: string | null;
  /** The current version's number (GET /api/agents/{id}/versions). */
  version: number;
  createdAt: string;
  updatedAt: string;
};

export function toAgentView(row: AgentRow): AgentView {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    modelName: row.modelName as AgentModelName,
    temperature: row.temperature,
    visibility: row.visibility,
    systemPrompt: row.systemPrompt,
    userPrompt: row.userPrompt,
    handle: row.handle,
    iconUrl: row.iconUrl,
    useSuperRetrieval: row.useSuperRetrieval,
    useFollowUp: row.useFollowUp,
    useConversationalMode: row.useConversationalMode,
    promptType: row.promptType,
    promptTemplate: row.promptTemplate,
    retrievalEvaluationConfig: row.retrievalEvaluationConfig ?? {},
    followUpConfig: row.followUpConfig ?? {},
    tools: row.tools,
    allowedOrigins: row.allowedOrigins,
    unavailableMessage: row.unavailableMessage,
    version: row.version,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
