import { AppError, invalid, notFound, unauthorized } from "../../lib/errors.ts";
import { newId } from "../../lib/ids.ts";
import type { AgentRepo, AgentRow } from "../agents/agent-repo.ts";
import {
  type Billing,
  RESERVATION_MARGIN_MS,
  releasingOnFailure,
} from "../billing/billing-port.ts";
import type { Caller } from "../caller.ts";
import type { ConversationRepo, ConversationRow } from "../conversations/conversation-repo.ts";
import { LOCAL_CHANNELS } from "../conversations/conversation-turns.ts";
import { HISTORY_MESSAGES } from "../query/answer-pipeline.ts";
import {
  classifyConversation,
  type GenerationSettings,
  writeFollowUp,
} from "./follow-up-generation.ts";
import type { FollowUpModel } from "./follow-up-model.ts";
import {
  type TranscriptMessage,
  transcriptOf,
  writerInstructions,
  writerRequest,
} from "./follow-up-prompts.ts";
import type { FollowUpRequest, FollowUpResponse } from "./follow-up-request.ts";

export type FollowUpServiceDeps = {
  agents: Pick<AgentRepo, "findByIdInAnyOrganization">;
  conversations: Pick<ConversationRepo, "findOfAgent" | "recentMessages" | "insertMessages">;
  billing: Billing;
  model: FollowUpModel;
  settings: GenerationSettings;
};

function checkShape(request: FollowUpRequest): void {
  const hasConversation = request.conversationId !== undefined;
  const hasMessages = request.messages !== undefined;
  if (hasConversation === hasMessages) {
    throw invalid("Send exactly one of conversationId or messages", [
      {
        path: "body",
        message: hasConversation
          ? "has both conversationId and messages"
          : "has neither conversationId nor messages",
      },
    ]);
  }
  if (request.saveToConversation && !hasConversation) {
    throw invalid("saveToConversation needs a conversationId to save the message in", [
      { path: "body.saveToConversation", message: "requires conversationId" },
    ]);
  }
  if (request.streaming) {
    throw invalid("The follow-up agent does not stream: send streaming false or leave it out", [
      { path: "body.streaming", message: "only false is accepted" },
    ]);
  }
}

function followUpPromptOf(agent: AgentRow, requestPrompt: string | undefined) {
  if (requestPrompt !== undefined && requestPrompt.trim() !== "") {
    return { prompt: requestPrompt, promptSource: "request" as const };
  }
  const saved = agent.followUpConfig?.prompt;
  if (typeof saved === "string" && saved.trim() !== "") {
    return { prompt: saved, promptSource: "agent" as const };
  }
  throw invalid(
    "No follow-up prompt: the agent has none configured (followUpConfig.prompt) and the request sent none (prompt)",
    [{ path: "body.prompt", message: "is required when the agent has no follow-up prompt" }],
  );
}

/**
 * The follow-up agent on demand (spec: POST /api/agents/{agentId}/follow-up/query): always writes
 * the message, optionally classifies the conversation first, bills only the writing, never
 * delivers anything and never touches the agent's follow-up settings or counters.
 */
export function createFollowUpService(deps: FollowUpServiceDeps) {
  const { model, settings } = deps;

  async function requireAgent(organizationId: string, agentId: string): Promise<AgentRow> {
    const agent = await deps.agents.findByIdInAnyOrganization(agentId);
    if (!agent) throw notFound("Agent not found");
    if (agent.organizationId !== organizationId) {
      throw unauthorized("The agent belongs to another organization");
    }
    return agent;
  }

  /** The transcript, and the conversation it was read from (null when sent inline). */
  async function conversationMessages(
    organizationId: string,
    agent: AgentRow,
    request: FollowUpRequest,
  ): Promise<{ messages: TranscriptMessage[]; conversation: ConversationRow | null }> {
    if (request.messages) return { messages: request.messages, conversation: null };
    const conversation = await deps.conversations.findOfAgent(
      organizationId,
      agent.id,
      request.conversationId as string,
    );
    if (!conversation) {
      throw new AppError("CONVERSATION_NOT_FOUND", "Conversation not found for this agent");
    }
    const messages = await deps.conversations.recentMessages(
      organizationId,
      conversation.id,
      HISTORY_MESSAGES,
    );
    if (messages.length === 0) {
      throw invalid("The conversation has no messages to follow up on", [
        { path: "body.conversationId", message: "has no messages" },
      ]);
    }
    if (request.saveToConversation && !LOCAL_CHANNELS.has(conversation.channel)) {
      throw invalid(
        `saveToConversation is only allowed for dashboard, website, form or api conversations; this one is on ${conversation.channel}, where messages are delivered to the customer`,
        [
          {
            path: "body.saveToConversation",
            message: `not allowed on the ${conversation.channel} channel`,
          },
        ],
      );
    }
    return { messages, conversation };
  }

  return {
    async run(
      caller: Caller,
      agentId: string,
      request: FollowUpRequest,
    ): Promise<FollowUpResponse> {
      checkShape(request);
      const { organizationId } = caller;
      const agent = await requireAgent(organizationId, agentId);
      const { prompt, promptSource } = followUpPromptOf(agent, request.prompt);
      const { messages, conversation } = await conversationMessages(organizationId, agent, request);
      const transcript = transcriptOf(messages, agent.name);
      const instructions = writerInstructions({
        agentName: agent.name,
        agentInstructions: agent.systemPrompt,
        followUpPrompt: prompt,
      });
      // Only the writer is billed (the filter is not): its prompt is known to the character.
      const reservation = await deps.billing.reserve({
        organizationId,
        apiKeyId: caller.apiKeyId,
        feature: "follow_up",
        provider: model.provider,
        modelName: model.providerModelId,
        inputTokens: instructions.length + writerRequest(transcript).length,
        outputTokens: settings.maxOutputTokens,
        holdMs: settings.timeoutMs + RESERVATION_MARGIN_MS,
      });
      // The offline responder refuses structured output: without a model there is no filter.
      const classify = !request.skipFilter && !model.offline;
      const [verdict, written] = await releasingOnFailure(deps.billing, reservation, () =>
        Promise.all([
          classify ? classifyConversation(model, transcript, settings) : null,
          writeFollowUp(model, instructions, transcript, settings),
        ]),
      );

      const conversationId = request.conversationId ?? null;
      const messageId = request.saveToConversation ? newId() : null;
      if (messageId && conversation) {
        await deps.conversations.insertMessages([
          {
            id: messageId,
            organizationId,
            conversationId: conversation.id,
            agentId: agent.id,
            from: "agent",
            text: written.text,
            // The agent's instructions (systemPrompt, a versioned field) shape the message.
            agentVersion: agent.version,
            metadata: {
              followUpQuery: {
                trigger: "manual",
                promptSource,
                model: model.spec,
                verdict,
                wouldSend: verdict === null ? null : verdict === "follow_up_conversation",
              },
            },
          },
        ]);
      }
      await deps.billing.charge({
        organizationId,
        agentId: agent.id,
        feature: "follow_up",
        provider: model.provider,
        modelName: model.providerModelId,
        inputTokens: written.inputTokens,
        outputTokens: written.outputTokens,
        conversationId,
        messageId,
        reservationId: reservation.id,
        apiKeyId: caller.apiKeyId,
        metadata: {
          trigger: "manual",
          model: model.spec,
          ...(model.offline ? { offline: true } : {}),
        },
      });
      return {
        answer: written.text,
        filter:
          verdict === null ? null : { verdict, wouldSend: verdict === "follow_up_conversation" },
        prompt,
        promptSource,
        conversationId,
        messageId,
        model: model.spec,
        usage: { inputTokens: written.inputTokens, outputTokens: written.outputTokens },
      };
    },
  };
}

export type FollowUpService = ReturnType<typeof createFollowUpService>;
