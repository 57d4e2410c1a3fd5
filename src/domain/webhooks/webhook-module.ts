import type { WebhooksConfig } from "../../config/webhooks-config.ts";
import type { Db } from "../../db/client.ts";
import type { JobQueue } from "../../jobs/job-queue.ts";
import type { Logger } from "../../lib/logger.ts";
import type { SafeFetcher } from "../../lib/safe-fetch.ts";
import type { Metrics } from "../../ops/metrics.ts";
import type { AgentRepo } from "../agents/agent-repo.ts";
import type { Billing } from "../billing/billing-port.ts";
import type { ConversationRepo } from "../conversations/conversation-repo.ts";
import type { ConversationTurns } from "../conversations/conversation-turns.ts";
import type { EventPublisher } from "../events/event-types.ts";
import type { AnswerPipeline } from "../query/answer-pipeline.ts";
import type { AttachmentReader } from "../query/attachment-reader.ts";
import type { KnowledgeLookup } from "../query/query-knowledge.ts";
import { createConversationalQueue } from "./conversational-queue.ts";
import { createWebhookDeliveryRepo } from "./webhook-delivery-repo.ts";
import { createWebhookDeliveryService } from "./webhook-delivery-service.ts";
import { createWebhookDeliveryReader } from "./webhook-delivery-view.ts";
import { createWebhookWindowRepo } from "./webhook-window-repo.ts";
import { createWebhookWindowService } from "./webhook-window-service.ts";
import { createWindowMessageRepo } from "./window-message-repo.ts";

export type WebhookModuleDeps = {
  db: Db;
  jobs: Pick<JobQueue, "send">;
  fetcher: SafeFetcher;
  logger: Logger;
  metrics: Pick<Metrics, "webhookAttempt">;
  billing: Billing;
  answers: AnswerPipeline;
  attachments: Pick<AttachmentReader, "read">;
  knowledge: KnowledgeLookup | null;
  events: EventPublisher;
  agents: AgentRepo;
  conversations: ConversationRepo;
  /** The conversations module's turns: what a conversational query stores. */
  turns: ConversationTurns;
  settings: {
    webhooks: WebhooksConfig;
    /** JOB_LEASE_SECONDS in ms: a process that renewed nothing for this long is taken for dead. */
    jobLeaseMs: number;
  };
};

/** Conversational mode and webhook delivery: the query seam, the two jobs, the read side. */
export function createWebhookModule(deps: WebhookModuleDeps) {
  const { db, settings, conversations } = deps;
  const windows = createWebhookWindowRepo(db);
  const deliveries = createWebhookDeliveryRepo(db);
  const windowMessages = createWindowMessageRepo(db);
  const delivery = createWebhookDeliveryService({
    deliveries,
    fetcher: deps.fetcher,
    jobs: deps.jobs,
    logger: deps.logger,
    metrics: deps.metrics,
    settings: { ...settings.webhooks, leaseMarginMs: settings.jobLeaseMs },
  });
  const windowService = createWebhookWindowService({
    db,
    windows,
    windowMessages,
    deliveries,
    delivery,
    conversations,
    agents: deps.agents,
    billing: deps.billing,
    answers: deps.answers,
    knowledge: deps.knowledge,
    events: deps.events,
    jobs: deps.jobs,
    // The model's time plus two job leases of headroom (attachments, retrieval, storing): the
    // first delivery attempt, made once the window is answered, has a lease of its own.
    leaseMs: deps.answers.settings.modelTimeoutMs + 2 * settings.jobLeaseMs,
    logger: deps.logger,
  });
  return {
    conversationalQueue: createConversationalQueue({
      fetcher: deps.fetcher,
      billing: deps.billing,
      turns: deps.turns,
      attachments: deps.attachments,
      windows,
      jobs: deps.jobs,
      settings: settings.webhooks,
    }),
    webhookWindows: windowService,
    webhookDeliveries: delivery,
    webhookDeliveryReader: createWebhookDeliveryReader({ deliveries, conversations }),
    /** The windows' and deliveries' records, for handoff and the channels' lanes. */
    webhookRecords: { windows, deliveries, windowMessages },
  };
}
