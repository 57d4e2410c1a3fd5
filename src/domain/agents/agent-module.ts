import type { AgentsConfig } from "../../config/agents-config.ts";
import type { Db } from "../../db/client.ts";
import type { SafeFetcher } from "../../lib/safe-fetch.ts";
import type { ModelRegistry } from "../../models/model-registry.ts";
import type { Billing } from "../billing/billing-port.ts";
import type { Caller } from "../caller.ts";
import { createAgentMessageService } from "../conversations/agent-message-service.ts";
import { createContactRepo } from "../conversations/contact-repo.ts";
import { createConversationExportRepo } from "../conversations/conversation-export-repo.ts";
import { createConversationExportService } from "../conversations/conversation-export-service.ts";
import { createConversationRepo } from "../conversations/conversation-repo.ts";
import { createConversationService } from "../conversations/conversation-service.ts";
import { createConversationTurns } from "../conversations/conversation-turns.ts";
import { createAttachmentReader } from "../query/attachment-reader.ts";
import type { KnowledgeLookup } from "../query/query-knowledge.ts";
import { createQueryService, querySettingsOf } from "../query/query-service.ts";
import type { ConversationalQueue } from "../query/query-types.ts";
import { createAgentRepo } from "./agent-repo.ts";
import { createAgentService } from "./agent-service.ts";
import { datastoreLookupOver } from "./agent-tools.ts";

// The AI SDK's default: two retries of a failed first request (2 s, then 4 s), none mid-stream.

export type AgentModuleDeps = {
  db: Db;
  models: Pick<ModelRegistry, "resolveLanguageModel">;
  billing: Billing;
  knowledge: KnowledgeLookup & {
    datastores: { list(context: Caller): Promise<Array<{ id: string }>> };
  };
  fetcher: SafeFetcher;
  settings: AgentsConfig & { modelTimeoutMs: number; modelMaxOutputTokens: number };
  conversational?: ConversationalQueue;
};

/** Agents, conversations, the query path, query-agent and the CSV export, wired together. */
export function createAgentModule(deps: AgentModuleDeps) {
  const { db, settings } = deps;
  const agentRepo = createAgentRepo(db);
  const conversationRepo = createConversationRepo(db);
  const contactRepo = createContactRepo(db);
  const agents = createAgentService({
    agents: agentRepo,
    datastores: datastoreLookupOver((caller) => deps.knowledge.datastores.list(caller)),
  });
  const turns = createConversationTurns({
    db,
    conversations: conversationRepo,
    contacts: contactRepo,
  });
  const query = createQueryService({
    agents,
    turns,
    conversations: conversationRepo,
    models: deps.models,
    billing: deps.billing,
    knowledge: deps.knowledge,
    attachments: createAttachmentReader({ fetcher: deps.fetcher, limits: settings.attachments }),
    ...(deps.conversational ? { conversational: deps.conversational } : {}),
    settings: querySettingsOf(settings, {
      timeoutMs: settings.modelTimeoutMs,
      maxOutputTokens: settings.modelMaxOutputTokens,
    }),
  });
  return {
    agents,
    conversations: createConversationService({ conversations: conversationRepo }),
    conversationTurns: turns,
    query,
    agentMessages: createAgentMessageService({ agents: agentRepo, contacts: contactRepo, turns }),
    conversationExports: createConversationExportService({
      agents,
      exports: createConversationExportRepo(db),
    }),
  };
}

export type AgentModule = ReturnType<typeof createAgentModule>;
