import type { Db } from "../../db/client.ts";
import type { Logger } from "../../lib/logger.ts";
import type { AgentRepo } from "../agents/agent-repo.ts";
import type { AgentService } from "../agents/agent-service.ts";
import type { EventPublisher } from "../events/event-types.ts";
import { createAgentMessageService } from "./agent-message-service.ts";
import { createContactRepo } from "./contact-repo.ts";
import { createConversationExportRepo } from "./conversation-export-repo.ts";
import { createConversationExportService } from "./conversation-export-service.ts";
import { createConversationListRepo } from "./conversation-list-repo.ts";
import { createConversationRepo } from "./conversation-repo.ts";
import { createConversationService } from "./conversation-service.ts";
import { createConversationTurns } from "./conversation-turns.ts";

export type ConversationModuleDeps = {
  db: Db;
  /** The export reads only the caller's own agents. */
  agents: Pick<AgentService, "requireAgent">;
  /** query-agent's agent, whatever the caller's organization (it may come without a key). */
  agentLookup: Pick<AgentRepo, "findByIdInAnyOrganization">;
  events: EventPublisher;
  logger: Pick<Logger, "error">;
};

/**
 * Conversations: their turns (what the query path and the public chat store), the inbox and a
 * conversation's view, query-agent's agent-authored messages and the CSV export.
 */
export function createConversationModule(deps: ConversationModuleDeps) {
  const { db } = deps;
  const conversationRepo = createConversationRepo(db);
  const contactRepo = createContactRepo(db);
  const turns = createConversationTurns({
    db,
    conversations: conversationRepo,
    contacts: contactRepo,
    events: deps.events,
    logger: deps.logger,
  });
  return {
    /** The records the answering modules read a conversation's history and messages from. */
    conversationRecords: conversationRepo,
    conversationTurns: turns,
    conversations: createConversationService({
      conversations: conversationRepo,
      lists: createConversationListRepo(db),
    }),
    agentMessages: createAgentMessageService({
      agents: deps.agentLookup,
      contacts: contactRepo,
      turns,
    }),
    conversationExports: createConversationExportService({
      agents: deps.agents,
      exports: createConversationExportRepo(db),
    }),
  };
}
