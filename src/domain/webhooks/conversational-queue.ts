import type { JobQueue } from "../../jobs/job-queue.ts";
import { newId } from "../../lib/ids.ts";
import type { SafeFetcher } from "../../lib/safe-fetch.ts";
import type { Billing } from "../billing/billing-port.ts";
import type { ConversationTurns } from "../conversations/conversation-turns.ts";
import type { AttachmentReader } from "../query/attachment-reader.ts";
import { asksForHuman } from "../query/human-request.ts";
import type { QueuedQueryResponse } from "../query/query-request.ts";
import type { ConversationalQueue } from "../query/query-types.ts";
import { validateWebhookUrl } from "./webhook-url.ts";
import type { WebhookWindowRepo } from "./webhook-window-repo.ts";

export type ConversationalQueueDeps = {
  fetcher: Pick<SafeFetcher, "check" | "probe">;
  billing: Pick<Billing, "assertCanRun">;
  turns: ConversationTurns;
  attachments: Pick<AttachmentReader, "read">;
  windows: Pick<WebhookWindowRepo, "addMessage">;
  jobs: Pick<JobQueue, "send">;
  settings: { batchDelayMs: number; probeTimeoutMs: number };
};

function confirmation(batchDelayMs: number): string {
  const seconds = Math.max(1, Math.round(batchDelayMs / 1000));
  return `Message received. The answer will be sent to webhookUrl about ${seconds} second${seconds === 1 ? "" : "s"} after the last message of this conversation.`;
}

/**
 * Conversational mode (the query service's seam): checks webhookUrl, stores the user message,
 * adds it to the conversation's batching window and schedules the window's close at its new
 * deadline. Everything that can fail with a 4xx happens before anything is stored.
 */
export function createConversationalQueue(deps: ConversationalQueueDeps): ConversationalQueue {
  const { settings } = deps;
  return {
    async enqueue({ caller, agent, request }): Promise<QueuedQueryResponse> {
      const { organizationId } = caller;
      const webhookUrl = await validateWebhookUrl(
        deps.fetcher,
        request.webhookUrl,
        settings.probeTimeoutMs,
      );
      await deps.billing.assertCanRun(organizationId);
      const target = await deps.turns.resolveTarget(organizationId, agent.id, request);
      const attachments = (request.attachments ?? []).map(({ url }) => ({ url }));
      // Read now so a bad attachment is a 400 to the caller, not an error webhook later.
      await deps.attachments.read(attachments.map(({ url }) => url));

      const messageId = newId();
      const humanRequested = asksForHuman(request.query);
      const conversation = await deps.turns.recordTurn({
        organizationId,
        agentId: agent.id,
        target,
        // Asking for a person still gets the handover answer of this window: the request takes
        // the AI out once that answer is stored (window-answer-store.ts).
        status: "reopen",
        contact: request.contact,
        messages: [
          {
            id: messageId,
            from: "human",
            text: request.query,
            attachments,
            metadata: {
              ...(request.context ? { context: request.context } : {}),
              ...(humanRequested ? { requestedHuman: true } : {}),
              conversational: { webhookUrl },
            },
            createdAt: new Date(),
          },
        ],
      });
      const window = await deps.windows.addMessage({
        id: newId(),
        organizationId,
        agentId: agent.id,
        conversationId: conversation.id,
        webhookUrl,
        messageId,
        options: {
          ...(request.systemPrompt ? { systemPrompt: request.systemPrompt } : {}),
          ...(request.promptType ? { promptType: request.promptType } : {}),
        },
        apiKeyId: caller.apiKeyId ?? null,
        delayMs: settings.batchDelayMs,
      });
      // Sent after the window's statement committed (PGlite: never inside a transaction).
      await deps.jobs.send(
        "webhook.window",
        { organizationId, windowId: window.id },
        { startAfter: window.deadline },
      );
      return {
        status: "queued",
        conversationId: conversation.externalId,
        visitorId: conversation.visitorId,
        inputMessageId: messageId,
        message: confirmation(settings.batchDelayMs),
        webhookUrl,
      };
    },
  };
}
