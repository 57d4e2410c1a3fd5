import type { Config } from "../config/index.ts";
import type { Database, Db } from "../db/client.ts";
import { createAccountModule } from "../domain/accounts/account-module.ts";
import { createAgentModule } from "../domain/agents/agent-module.ts";
import { createAnnotationModule } from "../domain/annotations/annotation-module.ts";
import { createApiKeyModule } from "../domain/api-keys/api-key-module.ts";
import { createBillingModule } from "../domain/billing/billing-module.ts";
import { createCreditBucketRepo } from "../domain/billing/credit-bucket-repo.ts";
import { createCreditGrantService } from "../domain/billing/credit-grant-service.ts";
import { createChannelModule } from "../domain/channels/channel-module.ts";
import { createConversationModule } from "../domain/conversations/conversation-module.ts";
import { createEvalModule } from "../domain/evaluation/eval-module.ts";
import { createEventModule } from "../domain/events/event-module.ts";
import { createFollowUpModule } from "../domain/follow-ups/follow-up-module.ts";
import {
  createHandoffModule,
  createHandoffNotifications,
} from "../domain/handoff/handoff-module.ts";
import { createKnowledgeModule } from "../domain/knowledge/knowledge-module.ts";
import { createLeadInboxRepo } from "../domain/leads/lead-inbox-repo.ts";
import { createLeadInboxService } from "../domain/leads/lead-inbox-service.ts";
import { createLeadModule } from "../domain/leads/lead-module.ts";
import { createOpenAiModule } from "../domain/openai/openai-module.ts";
import { createOrganizationModule } from "../domain/organizations/organization-module.ts";
import { createPublicChatModule } from "../domain/public-chat/public-chat-module.ts";
import { createAnswerModule, createQueryModule } from "../domain/query/query-module.ts";
import { createRetentionModule } from "../domain/retention/retention-module.ts";
import { createSubscriptionModule } from "../domain/subscriptions/subscription-module.ts";
import { createTranscriptionService } from "../domain/transcription/transcription-service.ts";
import { createWebhookModule } from "../domain/webhooks/webhook-module.ts";
import type { DocumentParser } from "../ingestion/parser/document-parser.ts";
import type { JobHandlers } from "../jobs/job-catalog.ts";
import type { JobQueue } from "../jobs/job-queue.ts";
import type { Logger } from "../lib/logger.ts";
import type { SafeFetcher } from "../lib/safe-fetch.ts";
import type { SecretBox } from "../lib/secret-box.ts";
import { createModelRegistry } from "../models/model-registry.ts";
import type { Metrics } from "../ops/metrics.ts";
import { instrumentModels } from "../ops/model-call-metrics.ts";

export type ServiceDeps = {
  config: Config;
  database: Database;
  jobs: JobQueue;
  fetcher: SafeFetcher;
  /** Reads uploads, fetched documents and attachments in threads of its own. */
  parser: DocumentParser;
  /** The HTTP client of every model call (model-transport.ts). */
  modelFetch: typeof fetch;
  /** Seals channel credentials; null when SECRETS_KEY is needed and not set. */
  secretBox: SecretBox | null;
  logger: Logger;
  metrics: Metrics;
};

/** Organizations, users, sessions and API keys: the base of everything else. */
export function createIdentityServices(db: Db, logger: Logger, settings: Config["accounts"]) {
  const accountModule = createAccountModule({ db, logger, settings });
  const keyModule = createApiKeyModule({ db, logger, audit: accountModule.audit });
  const organizationModule = createOrganizationModule({
    db,
    apiKeys: keyModule.apiKeys,
    audit: accountModule.audit,
    sessions: accountModule.sessions,
  });
  return { ...accountModule, ...keyModule, ...organizationModule };
}

/** Identity, credit grants, the directory and the leads inbox: what the admin API and CLI use. */
export function createOperatorServices(db: Db, logger: Logger, settings: Config["accounts"]) {
  const identity = createIdentityServices(db, logger, settings);
  const credits = createCreditGrantService({
    creditBuckets: createCreditBucketRepo(db),
    organizations: identity.organizations,
  });
  const leadInbox = createLeadInboxService({ leads: createLeadInboxRepo(db) });
  return { ...identity, credits, leadInbox };
}

/** The composition root of the domain: every service, wired to its repositories. */
export async function createServices(deps: ServiceDeps) {
  const { config, database, jobs, fetcher, parser, modelFetch, logger, metrics } = deps;
  const providerOptions = { ...config.models.registry, fetch: modelFetch };
  const { db } = database;
  const operators = createOperatorServices(db, logger, config.accounts);
  const subscriptionModule = createSubscriptionModule({
    db,
    jobs,
    fetcher,
    audit: operators.audit,
    users: operators.accountRecords,
  });
  const { handoffRecords, handoffNotifier } = createHandoffNotifications({
    db,
    mailer: operators.mailer,
    jobs,
    publicUrl: config.accounts.publicUrl,
  });
  // Live events: what services publish through, and the streams that follow them.
  const eventModule = createEventModule({
    db,
    logger,
    metrics,
    followers: [subscriptionModule.subscriptionFanOut, handoffNotifier],
  });
  const models = instrumentModels(createModelRegistry(providerOptions), metrics);
  const { billing, consumption, usage } = createBillingModule({
    db,
    priceOf: models.priceOf,
    logger,
    metrics,
  });
  const { leads, notifyLead } = await createLeadModule({
    db,
    jobs,
    fetcher,
    subscriptions: subscriptionModule.subscriptionFanOut,
    logger,
    notifyUrl: config.leads.notifyUrl,
  });

  const knowledge = await createKnowledgeModule({
    database,
    jobs,
    fetcher,
    parser,
    models,
    config: config.knowledge,
    billing,
    logger,
    metrics,
  });

  // One answer pipeline for the direct query and conversational mode.
  const { attachments, answers } = createAnswerModule({
    fetcher,
    parser,
    models,
    logger,
    settings: config.agents,
    model: { timeoutMs: config.models.timeoutMs, maxOutputTokens: config.models.maxOutputTokens },
  });

  const agentModule = createAgentModule({ db, knowledge });
  const conversationModule = createConversationModule({
    db,
    agents: agentModule.agents,
    agentLookup: agentModule.agentRecords,
    events: eventModule.publisher,
    logger,
  });
  const webhookModule = createWebhookModule({
    db,
    jobs,
    fetcher,
    logger,
    metrics,
    billing,
    answers,
    attachments,
    knowledge,
    events: eventModule.publisher,
    agents: agentModule.agentRecords,
    conversations: conversationModule.conversationRecords,
    turns: conversationModule.conversationTurns,
    settings: {
      webhooks: config.webhooks,
      jobLeaseMs: config.jobs.leaseSeconds * 1000,
    },
  });

  const followUpModule = createFollowUpModule({
    agents: agentModule.agentRecords,
    conversations: conversationModule.conversationRecords,
    models,
    billing,
    followUpModel: config.models.followUpModel,
    providerOptions,
    modelTimeoutMs: config.models.timeoutMs,
    modelMaxOutputTokens: config.models.maxOutputTokens,
  });

  const queryModule = createQueryModule({
    agents: agentModule.agents,
    turns: conversationModule.conversationTurns,
    conversations: conversationModule.conversationRecords,
    billing,
    knowledge,
    answers,
    conversational: webhookModule.conversationalQueue,
    logger,
  });
  const publicChatModule = createPublicChatModule({
    agents: agentModule.agents,
    conversations: conversationModule.conversationRecords,
    query: queryModule.query,
  });

  // The OpenAI-compatible API answers through the same query service.
  const { openai } = createOpenAiModule({
    db,
    agents: agentModule.agents,
    query: queryModule.query,
  });

  const transcription = createTranscriptionService({
    agents: agentModule.agentRecords,
    billing,
    models,
    model: { spec: config.models.transcriptionModel, ...config.models.transcriptionEndpoint },
    maxBytes: config.transcription.maxBytes,
    timeoutMs: config.transcription.timeoutMs,
    logger,
  });

  const channelModule = createChannelModule({
    db,
    agents: agentModule.agentRecords,
    conversations: conversationModule.conversationRecords,
    turns: conversationModule.conversationTurns,
    windowMessages: webhookModule.webhookRecords.windowMessages,
    jobs,
    billing,
    answers,
    knowledge,
    transcription,
    audit: operators.audit,
    events: eventModule.publisher,
    logger,
    metrics,
    secretBox: deps.secretBox,
    fetch: globalThis.fetch,
    fetcher,
    publicUrl: config.accounts.publicUrl,
    settings: {
      ...config.channels,
      maxDownloadBytes: config.transcription.maxBytes,
      jobLeaseMs: config.jobs.leaseSeconds * 1000,
      modelTimeoutMs: config.models.timeoutMs,
      smtpUrl: config.accounts.smtpUrl,
    },
  });

  const handoffModule = createHandoffModule({
    db,
    handoff: handoffRecords,
    conversations: conversationModule.conversationRecords,
    webhooks: webhookModule.webhookRecords,
    channels: channelModule.channelReplies,
    events: eventModule.publisher,
    jobs,
    metrics,
  });

  const evalModule = createEvalModule({
    db,
    jobs,
    agents: agentModule.agents,
    versions: agentModule.agentVersions,
    answers,
    knowledge,
    billing,
    models,
    logger,
  });

  const { retention } = createRetentionModule({
    db,
    conversations: conversationModule.conversationRecords,
    settings: config.retention,
    audit: operators.audit,
    logger,
  });

  const jobHandlers: JobHandlers = {
    "lead.notify": ({ leadId }) => notifyLead(leadId),
    "knowledge.ingest": (job, { signal }) => knowledge.runSync(job, signal),
    "knowledge.ingest.abandoned": (job) => knowledge.abandonSync(job),
    "knowledge.sync-schedule": async () => {
      await knowledge.runScheduledSyncs();
    },
    "webhook.window": ({ organizationId, windowId }) =>
      webhookModule.webhookWindows.close(organizationId, windowId),
    "webhook.deliver": ({ organizationId, deliveryId, attempt }) =>
      webhookModule.webhookDeliveries.attempt(organizationId, deliveryId, attempt),
    "webhook.recover": async () => {
      await webhookModule.webhookDeliveries.recoverOverdue();
    },
    "handoff.notify": (job) => handoffNotifier.notify(job),
    "channel.turn": ({ organizationId, threadId }) =>
      channelModule.channelTurns.run(organizationId, threadId),
    "eval.run": ({ organizationId, runId }, { signal }) =>
      evalModule.evalRunner.run(organizationId, runId, signal),
    "eval.run.abandoned": ({ organizationId, runId }) =>
      evalModule.evalRunner.abandon(organizationId, runId),
    "retention.sweep": async (_data, { signal }) => {
      await retention.sweep(signal);
    },
    "events.prune": () => eventModule.liveEvents.prune(),
  };

  const annotationModule = createAnnotationModule(db);

  return {
    ...operators,
    billing,
    consumption,
    usage,
    leads,
    models,
    knowledge,
    transcription,
    retention,
    openai,
    jobHandlers,
    parser,
    events: eventModule.publisher,
    liveEvents: eventModule.liveEvents,
    ...annotationModule,
    ...agentModule,
    ...conversationModule,
    ...queryModule,
    ...publicChatModule,
    ...webhookModule,
    ...followUpModule,
    ...channelModule,
    ...handoffModule,
    eventSubscriptions: subscriptionModule.eventSubscriptions,
    evalSets: evalModule.evalSets,
    evalRuns: evalModule.evalRuns,
  };
}

export type Services = Awaited<ReturnType<typeof createServices>>;
