import type { Caller } from "../caller.ts";
import { findConversationOfOrganization } from "../conversations/conversation-lookup.ts";
import type { ConversationRepo } from "../conversations/conversation-repo.ts";
import type {
  WebhookAttemptRow,
  WebhookDeliveryRepo,
  WebhookDeliveryRow,
} from "./webhook-delivery-repo.ts";

type WebhookAttemptView = {
  attempt: number;
  outcome: "delivered" | "failed";
  responseStatus: number | null;
  responseSnippet: string | null;
  error: string | null;
  durationMs: number;
  startedAt: string;
};

export type WebhookDeliveryView = {
  id: string;
  event: string;
  url: string;
  /** The payload's status: success, or error when no answer could be generated. */
  status: "success" | "error";
  state: WebhookDeliveryRow["state"];
  attemptCount: number;
  nextAttemptAt: string | null;
  lastError: string | null;
  deliveredAt: string | null;
  createdAt: string;
  payload: unknown;
  attempts: WebhookAttemptView[];
};

function toAttemptView(row: WebhookAttemptRow): WebhookAttemptView {
  return {
    attempt: row.attempt,
    outcome: row.outcome,
    responseStatus: row.responseStatus,
    responseSnippet: row.responseSnippet,
    error: row.error,
    durationMs: row.durationMs,
    startedAt: row.startedAt.toISOString(),
  };
}

function toDeliveryView(
  row: WebhookDeliveryRow,
  attempts: WebhookAttemptRow[],
): WebhookDeliveryView {
  return {
    id: row.id,
    event: row.event,
    url: row.url,
    status: row.payloadStatus,
    state: row.state,
    attemptCount: row.attemptCount,
    nextAttemptAt: row.state === "retrying" ? row.nextAttemptAt.toISOString() : null,
    lastError: row.lastError,
    deliveredAt: row.deliveredAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    payload: JSON.parse(row.payload) as unknown,
    attempts: attempts.map(toAttemptView),
  };
}

/** The read side: what was sent for a conversation, with every attempt. */
export function createWebhookDeliveryReader(deps: {
  deliveries: Pick<WebhookDeliveryRepo, "listForConversation">;
  conversations: Pick<ConversationRepo, "findInOrganization">;
}) {
  return {
    /** By the id clients use; `agentId` says which when several agents use that id. */
    async listForConversation(
      caller: Caller,
      conversationId: string,
      agentId?: string,
    ): Promise<{ data: WebhookDeliveryView[] }> {
      const { conversation } = await findConversationOfOrganization(
        deps.conversations,
        caller,
        conversationId,
        agentId,
      );
      const rows = await deps.deliveries.listForConversation(
        caller.organizationId,
        conversation.id,
      );
      return { data: rows.map(({ delivery, attempts }) => toDeliveryView(delivery, attempts)) };
    },
  };
}

export type WebhookDeliveryReader = ReturnType<typeof createWebhookDeliveryReader>;
