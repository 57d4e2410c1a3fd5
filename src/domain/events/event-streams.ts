import { z } from "zod";
import type { Caller } from "../caller.ts";
import { mayUseAgent } from "../caller.ts";
import type { EventHub, EventSelector, EventSubscription } from "./event-hub.ts";
import type { ConversationUpdatedData, LiveEventName, MessageCreatedData } from "./event-types.ts";

/** The conversation a visitor's stream follows, once the public chat has checked it is theirs. */
export type VisitorConversation = {
  organizationId: string;
  agentId: string;
  conversationId: string;
};

/** What `data` of a stream's event always starts with. */
function idsOf(row: { conversationId: string; agentId: string }) {
  return { conversationId: row.conversationId, agentId: row.agentId };
}

/** The organization's events that the caller may see: a scoped key's agents only. */
function organizationSelector(caller: Pick<Caller, "agentIds">): EventSelector {
  return (row) =>
    mayUseAgent(caller, row.agentId)
      ? {
          id: row.id,
          name: row.name as LiveEventName,
          // The ids first, and never replaced by a field of the data.
          data: { ...idsOf(row), ...row.data, ...idsOf(row) },
        }
      : null;
}

// What a visitor may see of a message: never its sources, usage, metadata or the operator's
// email. Parsed, not trusted: an event without these fields is not sent to visitors.
const visitorMessage = z.object({
  id: z.string(),
  from: z.enum(["human", "agent"]),
  text: z.string(),
  createdAt: z.string(),
  isDraft: z.boolean().optional(),
  user: z.object({ name: z.string().nullable().optional() }).nullable().optional(),
});

const visitorUpdate = z.object({
  status: z.string().optional(),
  aiEnabled: z.boolean().optional(),
});

/** The visitor's conversation's messages and changes, as much as the widget may show. */
function visitorSelector(conversation: VisitorConversation): EventSelector {
  return (row) => {
    if (row.agentId !== conversation.agentId) return null;
    if (row.conversationId !== conversation.conversationId) return null;
    if (row.name === "message.created") {
      const parsed = visitorMessage.safeParse((row.data as Partial<MessageCreatedData>).message);
      if (!parsed.success || parsed.data.isDraft) return null;
      const { id, from, text, createdAt, user } = parsed.data;
      const operator = user?.name ? { name: user.name } : null;
      return {
        id: row.id,
        name: row.name,
        data: { ...idsOf(row), message: { id, from, text, createdAt, operator } },
      };
    }
    if (row.name === "conversation.updated") {
      const parsed = visitorUpdate.safeParse(row.data as ConversationUpdatedData);
      if (!parsed.success) return null;
      return { id: row.id, name: row.name, data: { ...idsOf(row), ...parsed.data } };
    }
    return null;
  };
}

/** The two kinds of live event streams: an organization's, and a public chat visitor's. */
export function createEventStreams(deps: { hub: Pick<EventHub, "subscribe"> }) {
  return {
    /** GET /api/events: the caller's organization's events after `afterId` (or from now). */
    organization(
      caller: Pick<Caller, "organizationId" | "agentIds">,
      afterId: number | null,
    ): EventSubscription {
      return deps.hub.subscribe(caller.organizationId, organizationSelector(caller), afterId);
    },

    /** The public chat's stream of one visitor's conversation. */
    visitor(conversation: VisitorConversation, afterId: number | null): EventSubscription {
      return deps.hub.subscribe(
        conversation.organizationId,
        visitorSelector(conversation),
        afterId,
      );
    },
  };
}
