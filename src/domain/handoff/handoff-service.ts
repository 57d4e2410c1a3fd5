import type { Db } from "../../db/client.ts";
import type { JobQueue } from "../../jobs/job-queue.ts";
import { AppError, invalid } from "../../lib/errors.ts";
import { newId } from "../../lib/ids.ts";
import type { Metrics } from "../../ops/metrics.ts";
import type { Caller } from "../caller.ts";
import type { ChannelReplies } from "../channels/channel-replies.ts";
import { REPLY_WINDOW_CLOSED } from "../channels/channel-turns.ts";
import { findConversationOfOrganization } from "../conversations/conversation-lookup.ts";
import type { ConversationRepo, ConversationRow } from "../conversations/conversation-repo.ts";
import {
  type ConversationView,
  type MessageView,
  type PersonView,
  toConversationView,
  toNewMessageView,
} from "../conversations/conversation-view.ts";
import type { EventPublisher } from "../events/event-types.ts";
import type { WebhookDeliveryRepo } from "../webhooks/webhook-delivery-repo.ts";
import { successPayload } from "../webhooks/webhook-payload.ts";
import type { WebhookWindowRepo } from "../webhooks/webhook-window-repo.ts";
import type { HandoffRepo } from "./handoff-repo.ts";
import type { ConversationStateChange, OperatorReply } from "./handoff-request.ts";

export type HandoffServiceDeps = {
  db: Db;
  handoff: HandoffRepo;
  conversations: Pick<ConversationRepo, "findInOrganization" | "findById" | "insertMessages">;
  channels: ChannelReplies;
  windows: Pick<WebhookWindowRepo, "latestWebhookUrl">;
  deliveries: Pick<WebhookDeliveryRepo, "insert">;
  events: EventPublisher;
  jobs: Pick<JobQueue, "send">;
  metrics: Pick<Metrics, "firstHumanReply">;
};

type Status = ConversationRow["status"];

/**
 * The state after a change (docs/handoff.md): taking over (aiEnabled false) asks for a person,
 * handing back (aiEnabled true) ends that, RESOLVED gives the conversation back to the AI and
 * HUMAN_REQUESTED takes it away, unless the body says otherwise.
 */
function nextState(current: ConversationRow, change: ConversationStateChange) {
  let status: Status = change.status ?? current.status;
  let aiEnabled = change.aiEnabled;
  if (aiEnabled === undefined) {
    if (change.status === "RESOLVED") aiEnabled = true;
    else if (change.status === "HUMAN_REQUESTED") aiEnabled = false;
    else aiEnabled = current.aiEnabled;
  }
  if (change.status === undefined && change.aiEnabled !== undefined) {
    if (!change.aiEnabled && current.status !== "HUMAN_REQUESTED") status = "HUMAN_REQUESTED";
    if (change.aiEnabled && current.status === "HUMAN_REQUESTED") status = "UNRESOLVED";
  }
  return { status, aiEnabled };
}

/** Human handoff: who handles a conversation, and the replies people write in it. */
export function createHandoffService(deps: HandoffServiceDeps) {
  async function find(caller: Caller, conversationId: string, agentId: string | undefined) {
    return findConversationOfOrganization(deps.conversations, caller, conversationId, agentId);
  }

  /** The author of a reply: the signed-in member, or the key (by its name). */
  async function operatorOf(caller: Caller): Promise<PersonView> {
    if (caller.apiKeyId) {
      const name = await deps.handoff.keyNameOf(caller.organizationId, caller.apiKeyId);
      return { id: caller.apiKeyId, email: null, name: name ?? "API key" };
    }
    const user = await deps.handoff.userOf(caller.userId);
    return { id: caller.userId, email: user?.email ?? null, name: user?.name ?? null };
  }

  async function view(organizationId: string, rowId: string): Promise<ConversationView> {
    const found = await deps.conversations.findById(organizationId, rowId);
    if (!found) throw new AppError("CONVERSATION_NOT_FOUND", "Conversation not found");
    return toConversationView(
      found.conversation,
      found.contact?.id ? found.contact : null,
      found.assignee,
    );
  }

  return {
    /** PATCH /api/conversations/{id}: status, aiEnabled, assignee. */
    async update(
      caller: Caller,
      conversationId: string,
      agentId: string | undefined,
      change: ConversationStateChange,
    ): Promise<ConversationView> {
      const { conversation } = await find(caller, conversationId, agentId);
      if (change.assigneeId) {
        if (!(await deps.handoff.isMember(caller.organizationId, change.assigneeId))) {
          throw invalid("assigneeId must be a member of this organization", [
            { path: "body.assigneeId", message: "is not a member of this organization" },
          ]);
        }
      }
      const state = nextState(conversation, change);
      const assignee =
        change.assigneeId === undefined
          ? undefined
          : change.assigneeId === null
            ? null
            : await deps.handoff.userOf(change.assigneeId);
      await deps.db.transaction(async (tx) => {
        await deps.handoff.setState(
          caller.organizationId,
          conversation.id,
          {
            ...state,
            ...(change.assigneeId !== undefined ? { assigneeId: change.assigneeId } : {}),
            // A request for a person stands until one replies or the AI takes it back.
            humanRequestedAt:
              state.status === "HUMAN_REQUESTED"
                ? (conversation.humanRequestedAt ?? new Date())
                : null,
          },
          tx,
        );
        const event = {
          organizationId: caller.organizationId,
          agentId: conversation.agentId,
          conversationId: conversation.externalId,
        };
        await deps.events.publish(
          {
            ...event,
            name: "conversation.updated",
            data: {
              status: state.status,
              aiEnabled: state.aiEnabled,
              ...(assignee !== undefined ? { assignee } : {}),
            },
          },
          tx,
        );
        if (state.status === "HUMAN_REQUESTED" && conversation.status !== "HUMAN_REQUESTED") {
          await deps.events.publish(
            { ...event, name: "conversation.human_requested", data: { trigger: "operator" } },
            tx,
          );
        }
      });
      return view(caller.organizationId, conversation.id);
    },

    /**
     * POST /api/conversations/{id}/messages: stored as the agent's message with its author,
     * sent through the conversation's channel (or its conversational webhook), and the AI
     * stops answering in the conversation.
     */
    async reply(
      caller: Caller,
      conversationId: string,
      agentId: string | undefined,
      reply: OperatorReply,
    ): Promise<MessageView> {
      const { conversation } = await find(caller, conversationId, agentId);
      const { organizationId } = caller;
      const route = await deps.channels.routeOf(organizationId, conversation.id);
      if (route && !route.windowOpen) throw new AppError("CONFLICT", REPLY_WINDOW_CLOSED);
      // One reply is one message: the platform would refuse a longer one (Messenger: 2,000).
      if (route && reply.text.length > route.maxChars) {
        throw invalid(
          `This conversation's platform takes at most ${route.maxChars} characters in a message`,
          [
            {
              path: "body.text",
              message: `must be at most ${route.maxChars} characters on ${route.type}`,
            },
          ],
        );
      }
      const webhookUrl = route
        ? null
        : await deps.windows.latestWebhookUrl(organizationId, conversation.id);
      const operator = await operatorOf(caller);
      const message = {
        id: newId(),
        organizationId,
        conversationId: conversation.id,
        agentId: conversation.agentId,
        from: "agent" as const,
        text: reply.text,
        metadata: { operator },
        createdAt: new Date(),
      };
      const deliveryId = webhookUrl ? newId() : null;
      const shown: MessageView = {
        ...toNewMessageView(message),
        ...(route
          ? { delivery: { status: "queued" as const, platformMessageId: null, error: null } }
          : {}),
      };
      await deps.db.transaction(async (tx) => {
        await deps.conversations.insertMessages([message], tx);
        if (conversation.aiEnabled || conversation.humanRequestedAt) {
          // The first reply answers the request for a person: it no longer waits.
          await deps.handoff.setState(
            organizationId,
            conversation.id,
            { aiEnabled: false, humanRequestedAt: null },
            tx,
          );
        }
        if (route) await deps.channels.queue(route, message, tx);
        if (webhookUrl && deliveryId) {
          await deps.deliveries.insert(
            {
              id: deliveryId,
              organizationId,
              agentId: conversation.agentId,
              conversationId: conversation.id,
              url: webhookUrl,
              payloadStatus: "success",
              payload: successPayload({
                conversationId: conversation.externalId,
                visitorId: conversation.visitorId,
                parts: [message],
                answer: message.text,
                sources: [],
                usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0, cost: 0 },
                metadata: { operator, conversationStatus: conversation.status },
              }),
            },
            tx,
          );
        }
        const event = {
          organizationId,
          agentId: conversation.agentId,
          conversationId: conversation.externalId,
        };
        await deps.events.publish(
          {
            ...event,
            name: "message.created",
            data: { message: shown },
          },
          tx,
        );
        if (conversation.aiEnabled) {
          await deps.events.publish(
            { ...event, name: "conversation.updated", data: { aiEnabled: false } },
            tx,
          );
        }
      });
      if (conversation.humanRequestedAt) {
        deps.metrics.firstHumanReply((Date.now() - conversation.humanRequestedAt.getTime()) / 1000);
      }
      if (route) await deps.channels.send(organizationId, route);
      if (deliveryId) {
        await deps.jobs.send("webhook.deliver", { organizationId, deliveryId, attempt: 1 });
      }
      return shown;
    },
  };
}

export type HandoffService = ReturnType<typeof createHandoffService>;
