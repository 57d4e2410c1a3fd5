import type { Db } from "../../db/client.ts";
import type { Logger } from "../../lib/logger.ts";
import type { Billing } from "../billing/billing-port.ts";
import type { Caller } from "../caller.ts";
import { createAgentMessageService } from "../conversations/agent-message-service.ts";
import { createContactRepo } from "../conversations/contact-repo.ts";
import { createConversationExportRepo } from "../conversations/conversation-export-repo.ts";
import { createConversationExportService } from "../conversations/conversation-export-service.ts";
import { createConversationListRepo } from "../conversations/conversation-list-repo.ts";
import { createConversationRepo } from "../conversations/conversation-repo.ts";
import { createConversationService } from "../conversations/conversation-service.ts";
import { createConversationTurns } from "../conversations/conversation-turns.ts";
import type { EventPublisher } from "../events/event-types.ts";
import { createPublicChatService } from "../public-chat/public-chat-service.ts";
import type { AnswerPipeline } from "../query/answer-pipeline.ts";
import type { KnowledgeLookup } from "../query/query-knowledge.ts";
import { createQueryService } from "../query/query-service.ts";
import type { ConversationalQueue } from "../query/query-types.ts";
import { createAgentRepo } from "./agent-repo.ts";
import { createAgentService } from "./agent-service.ts";
import { datastoreLookupOver } from "./agent-tools.ts";
import { createAgentVersionRepo } from "./agent-version-repo.ts";
import { createAgentVersionService } from "./agent-versions.ts";

export type AgentModuleDeps = {
  db: Db;
  billing: Billing;
  knowledge: KnowledgeLookup & {
    datastores: { list(context: Caller): Promise<Array<{ id: string }>> };
  };
  answers: AnswerPipeline;
  conversational?: ConversationalQueue;
  events: EventPublisher;
  logger: Pick<Logger, "error">;
};

/**
 * Agents and their versions, conversations, the query path, query-agent and the CSV export,
 * wired together.
 */
export function createAgentModule(deps: AgentModuleDeps) {
  const { db } = deps;
  const agentRepo = createAgentRepo(db);
  const conversationRepo = createConversationRepo(db);
  const contactRepo = createContactRepo(db);
  const versionRepo = createAgentVersionRepo(db);
  const datastores = datastoreLookupOver((caller) => deps.knowledge.datastores.list(caller));
  const agents = createAgentService({ db, agents: agentRepo, versions: versionRepo, datastores });
  const turns = createConversationTurns({
    db,
    conversations: conversationRepo,
    contacts: contactRepo,
    events: deps.events,
    logger: deps.logger,
  });
  const query = createQueryService({
    agents,
    turns,
    conversations: conversationRepo,
    billing: deps.billing,
    knowledge: deps.knowledge,
    answers: deps.answers,
    ...(deps.conversational ? { conversational: deps.conversational } : {}),
    ...(deps.logger ? { logger: deps.logger } : {}),
  });
  return {
    agents,
    /** list, get, restore; `find` (findVersion) for other modules, without a caller. */
    agentVersions: createAgentVersionService({ agents, versions: versionRepo, datastores }),
    publicChat: createPublicChatService({ agents, conversations: conversationRepo, query }),
    conversations: createConversationService({
      conversations: conversationRepo,
      lists: createConversationListRepo(db),
    }),
    conversationTurns: turns,
    query,
    agentMessages: createAgentMessageService({ agents: agentRepo, contacts: contactRepo, turns }),
    conversationExports: createConversationExportService({
      agents,
      exports: createConversationExportRepo(db),
    }),
  };
}
