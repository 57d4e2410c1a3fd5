import type { ChannelsConfig } from "../../config/channels-config.ts";
import type { Db } from "../../db/client.ts";
import type { ChannelType } from "../../db/schema/index.ts";
import type { JobQueue } from "../../jobs/job-queue.ts";
import type { Logger } from "../../lib/logger.ts";
import type { SafeFetcher } from "../../lib/safe-fetch.ts";
import type { SecretBox } from "../../lib/secret-box.ts";
import type { Metrics } from "../../ops/metrics.ts";
import type { AuditLog } from "../accounts/audit-log.ts";
import type { AgentRepo } from "../agents/agent-repo.ts";
import type { Billing } from "../billing/billing-port.ts";
import type { ConversationRepo } from "../conversations/conversation-repo.ts";
import type { ConversationTurns } from "../conversations/conversation-turns.ts";
import type { EventPublisher } from "../events/event-types.ts";
import type { AnswerPipeline } from "../query/answer-pipeline.ts";
import type { KnowledgeLookup } from "../query/query-knowledge.ts";
import type { WindowMessageRepo } from "../webhooks/window-message-repo.ts";
import type { ChannelAdapter, PlatformContext } from "./channel-adapter.ts";
import { createChannelInbound } from "./channel-inbound.ts";
import { createChannelLaneRepo } from "./channel-lane-repo.ts";
import { createChannelReplies } from "./channel-replies.ts";
import { createChannelRepo } from "./channel-repo.ts";
import { createChannelService } from "./channel-service.ts";
import { createChannelTurns, type VoiceTranscriber } from "./channel-turns.ts";
import { chatwootAdapter } from "./chatwoot-adapter.ts";
import { mailAdapter } from "./mail-adapter.ts";
import { createMailPoller } from "./mail-imap-poller.ts";
import { createMailMailboxRepo } from "./mail-mailbox-repo.ts";
import { createMailReader } from "./mail-reader.ts";
import { createMailTransport } from "./mail-sender.ts";
import { metaAdapter } from "./meta-adapter.ts";
import { fetchThroughGuard } from "./platform-http.ts";
import { slackAdapter } from "./slack-adapter.ts";
import { telegramAdapter } from "./telegram-adapter.ts";
import { whatsappAdapter } from "./whatsapp-adapter.ts";

/** Every platform's adapter, by channel type. */
const ADAPTERS: ReadonlyMap<ChannelType, ChannelAdapter> = new Map(
  [telegramAdapter, whatsappAdapter, slackAdapter, metaAdapter, chatwootAdapter, mailAdapter].map(
    (adapter) => [adapter.type, adapter],
  ),
);

export type ChannelModuleDeps = {
  db: Db;
  agents: AgentRepo;
  conversations: ConversationRepo;
  /** The conversations module's turns: what a channel's messages are stored with. */
  turns: ConversationTurns;
  /** The messages of a turn, as conversational windows keep them. */
  windowMessages: WindowMessageRepo;
  jobs: Pick<JobQueue, "send">;
  billing: Billing;
  answers: AnswerPipeline;
  knowledge: KnowledgeLookup | null;
  transcription: VoiceTranscriber;
  audit: AuditLog;
  events: EventPublisher;
  logger: Logger;
  metrics: Pick<Metrics, "channelInbound" | "channelSend" | "channelAnswered">;
  secretBox: SecretBox | null;
  /** The HTTP client of calls to the platforms (their base URLs are the operator's, trusted). */
  fetch: typeof fetch;
  /**
   * The SSRF-safe client of calls to URLs a channel's config gives (a Chatwoot instance), and
   * its guard for hosts other protocols dial (an IMAP server).
   */
  fetcher: Pick<SafeFetcher, "fetch" | "resolveHost">;
  /** PUBLIC_URL: webhook URLs given to the platforms start with it. */
  publicUrl: string;
  settings: ChannelsConfig & {
    maxDownloadBytes: number;
    /** JOB_LEASE_SECONDS in ms. */
    jobLeaseMs: number;
    modelTimeoutMs: number;
    /** SMTP_URL: mail channels answer through it, and cannot be created without it. */
    smtpUrl: string | undefined;
  };
};

// A send is retried for about an hour: 5 s, then doubling, eleven attempts in all.
const MAX_SEND_ATTEMPTS = 11;
const SEND_RETRY_BASE_MS = 5_000;

/** Channels: their management, the one inbound path and the lanes' job. */
export function createChannelModule(deps: ChannelModuleDeps) {
  const { db, settings } = deps;
  const mailReader = createMailReader(deps.logger);
  const platform: PlatformContext = {
    platforms: settings.platforms,
    fetch: deps.fetch,
    guardedFetch: fetchThroughGuard(deps.fetcher),
    maxDownloadBytes: settings.maxDownloadBytes,
    mail: settings.smtpUrl ? createMailTransport(settings.smtpUrl) : null,
    mailReader,
    resolveHost: (hostname) => deps.fetcher.resolveHost(hostname),
  };
  const channelRepo = createChannelRepo(db);
  const lanes = createChannelLaneRepo(db);
  const channels = createChannelService({
    db,
    channels: channelRepo,
    agents: deps.agents,
    adapters: ADAPTERS,
    secretBox: deps.secretBox,
    platform,
    audit: deps.audit,
    logger: deps.logger,
    publicUrl: deps.publicUrl,
    onChanged: (row) => {
      if (row.type !== "mail") return;
      mailPoller.wake();
      if (row.enabled) mailReader.warm();
    },
  });
  const channelInbound = createChannelInbound({
    channels: { findForInbound: channels.findForInbound, touch: channelRepo.touch },
    lanes,
    open: channels.open,
    jobs: deps.jobs,
    platform,
    batchDelayMs: settings.batchDelayMs,
    onOutcome: deps.metrics.channelInbound,
    logger: deps.logger,
  });
  const channelTurns = createChannelTurns({
    db,
    lanes,
    channels: channelRepo,
    open: channels.open,
    agents: deps.agents,
    conversations: deps.conversations,
    turns: deps.turns,
    windowMessages: deps.windowMessages,
    billing: deps.billing,
    answers: deps.answers,
    knowledge: deps.knowledge,
    transcription: deps.transcription,
    events: deps.events,
    jobs: deps.jobs,
    platform,
    logger: deps.logger,
    metrics: { sent: deps.metrics.channelSend, answered: deps.metrics.channelAnswered },
    settings: {
      batchDelayMs: settings.batchDelayMs,
      // The model's time, then the sends, with two job leases of headroom.
      leaseMs: settings.modelTimeoutMs + 2 * settings.jobLeaseMs + 60_000,
      maxSendAttempts: MAX_SEND_ATTEMPTS,
      retryBaseMs: SEND_RETRY_BASE_MS,
    },
  });
  const channelReplies = createChannelReplies({
    lanes,
    channelTypeOf: async (channelId, organizationId) =>
      (await channelRepo.findById(organizationId, channelId))?.type ?? null,
    adapters: ADAPTERS,
    jobs: deps.jobs,
  });
  const mailPoller = createMailPoller({
    mailboxes: createMailMailboxRepo(db),
    channels: channelRepo,
    open: channels.open,
    inbound: channelInbound,
    platform,
    logger: deps.logger,
  });
  /** With mail channels, the reader's thread starts with the process rather than its first mail. */
  async function warmMailReader() {
    if (await channelRepo.anyEnabled("mail")) mailReader.warm();
  }
  return {
    channels,
    channelInbound,
    channelTurns,
    channelReplies,
    mailPoller,
    mailReader,
    warmMailReader,
  };
}
