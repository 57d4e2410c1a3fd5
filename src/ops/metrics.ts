import {
  Counter,
  collectDefaultMetrics,
  Gauge,
  Histogram,
  type LabelValues,
  Registry,
} from "prom-client";
import { registerRequestHistogram } from "./request-histogram.ts";

/** The route label of a request no route matched: never the URL, which a client chooses. */
export const UNMATCHED_ROUTE = "unmatched";

/** Features the service meters itself; any other (the usage increment's free text) is `other`. */
const KNOWN_FEATURES = new Set([
  "chat",
  "agent_run",
  "follow_up",
  "super_retrieval",
  "model_comparison",
  "transcription",
  "embeddings",
]);

const featureLabel = (feature: string) => (KNOWN_FEATURES.has(feature) ? feature : "other");

/** Seconds, from a fast API answer to a slow page: Prometheus' defaults plus 30 and 60 s. */
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
/** Seconds; a model call takes from a fraction of a second to minutes. */
const MODEL_BUCKETS = [0.25, 0.5, 1, 2, 5, 10, 20, 30, 60, 120, 300];
/** Seconds; a job takes from milliseconds (a notification) to an hour (a large site). */
const JOB_BUCKETS = [0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300, 900, 3600];

const LEAD_OUTCOMES = ["stored", "invalid", "rate_limited", "error"] as const;
const INGESTION_OUTCOMES = ["synched", "error", "usage_limit_reached", "abandoned"] as const;
const WEBHOOK_ATTEMPT_STATES = ["delivered", "retrying", "failed"] as const;
const CHANNEL_TYPES = ["telegram", "whatsapp", "slack", "meta", "chatwoot", "mail"] as const;
const HANDOFF_TRIGGERS = ["customer", "model", "operator"] as const;
/** What an inbound platform request, or one message in it, came to (channel-inbound.ts). */
export const CHANNEL_INBOUND_OUTCOMES = [
  "accepted",
  "duplicate",
  "ignored",
  "status",
  "handshake",
  "unauthorized",
  "not_found",
  "invalid",
] as const;

type LeadOutcome = (typeof LEAD_OUTCOMES)[number];
export type IngestionOutcome = (typeof INGESTION_OUTCOMES)[number];
type WebhookAttemptState = (typeof WEBHOOK_ATTEMPT_STATES)[number];
export type JobOutcome = "completed" | "failed";
export type ModelCall = {
  provider: string;
  model: string;
  seconds: number;
  ok: boolean;
  inputTokens: number;
  outputTokens: number;
};

/** Read at scrape time: pending jobs by queue (null when the database does not answer). */
export type QueueDepths = () => Promise<Map<string, number> | null>;

/**
 * The process's one metrics registry and every instrument of the service, each recorded by a
 * one-line call from the code it measures. Every label has a bounded set of values: route
 * patterns, status codes, catalog models and providers, queue names, fixed outcomes; never an
 * id, a URL or text a client chose (docs/operations.md lists them).
 */
export function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];

  const httpRequest = registerRequestHistogram(registry, {
    name: "http_request_duration_seconds",
    help: "Time from a request's arrival to its response's end, by route pattern and status",
    buckets: HTTP_BUCKETS,
  });

  const modelDuration = new Histogram({
    name: "agentdesk_model_call_duration_seconds",
    help: "Duration of one language model call (a stream: until its last part)",
    labelNames: ["provider", "model", "outcome"] as const,
    buckets: MODEL_BUCKETS,
    registers,
  });
  const modelTokens = new Counter({
    name: "agentdesk_model_tokens_total",
    help: "Tokens the language models reported, by direction (input or output)",
    labelNames: ["provider", "model", "direction"] as const,
    registers,
  });
  const creditsCharged = new Counter({
    name: "agentdesk_credits_charged_total",
    help: "Credits charged to organizations, by metered feature",
    labelNames: ["feature"] as const,
    registers,
  });
  const consumptionEvents = new Counter({
    name: "agentdesk_consumption_events_total",
    help: "Consumption events written to the ledger, by metered feature",
    labelNames: ["feature"] as const,
    registers,
  });
  const jobs = new Counter({
    name: "agentdesk_jobs_total",
    help: "Background job runs that ended, by queue and outcome",
    labelNames: ["queue", "outcome"] as const,
    registers,
  });
  const jobDuration = new Histogram({
    name: "agentdesk_job_duration_seconds",
    help: "Duration of one background job run, by queue",
    labelNames: ["queue"] as const,
    buckets: JOB_BUCKETS,
    registers,
  });
  const ingestions = new Counter({
    name: "agentdesk_ingestions_total",
    help: "Datasource syncs that ended, by outcome",
    labelNames: ["outcome"] as const,
    registers,
  });
  const webhookAttempts = new Counter({
    name: "agentdesk_webhook_deliveries_total",
    help: "Webhook delivery attempts, by what they left the delivery in",
    labelNames: ["outcome"] as const,
    registers,
  });
  const channelInbound = new Counter({
    name: "agentdesk_channel_inbound_total",
    help: "Inbound platform requests and the messages in them, by channel type and outcome",
    labelNames: ["type", "outcome"] as const,
    registers,
  });
  const channelSends = new Histogram({
    name: "agentdesk_channel_send_seconds",
    help: "Sends of one message to a platform, by channel type and outcome (sent, retry, failed)",
    labelNames: ["type", "outcome"] as const,
    buckets: HTTP_BUCKETS,
    registers,
  });
  const channelAnswers = new Histogram({
    name: "agentdesk_channel_answer_seconds",
    help: "From a customer's message on a channel to the first part of its answer sent, by type",
    labelNames: ["type"] as const,
    buckets: MODEL_BUCKETS,
    registers,
  });
  const handoffs = new Counter({
    name: "agentdesk_handoffs_total",
    help: "Conversations handed to a person, by what asked for one (customer, model, operator)",
    labelNames: ["trigger"] as const,
    registers,
  });
  const firstHumanReply = new Histogram({
    name: "agentdesk_handoff_first_reply_seconds",
    help: "From a conversation's request for a person to the first reply a person wrote",
    buckets: [5, 30, 60, 300, 900, 1800, 3600, 7200, 14400, 43200, 86400],
    registers,
  });
  let waitingForHuman: (() => Promise<number | null>) | null = null;
  new Gauge({
    name: "agentdesk_conversations_waiting_for_human",
    help: "Conversations that asked for a person and have the AI off; read at scrape time",
    registers,
    async collect() {
      const count = await waitingForHuman?.();
      if (count !== null && count !== undefined) this.set(count);
    },
  });
  for (const trigger of HANDOFF_TRIGGERS) handoffs.inc({ trigger }, 0);
  const leads = new Counter({
    name: "agentdesk_lead_submissions_total",
    help: "Lead form submissions, by outcome",
    labelNames: ["outcome"] as const,
    registers,
  });
  // Fixed outcomes start at 0, so that a rate over them exists before the first event.
  for (const outcome of LEAD_OUTCOMES) leads.inc({ outcome }, 0);
  for (const outcome of INGESTION_OUTCOMES) ingestions.inc({ outcome }, 0);
  for (const outcome of WEBHOOK_ATTEMPT_STATES) webhookAttempts.inc({ outcome }, 0);
  for (const type of CHANNEL_TYPES) {
    for (const outcome of CHANNEL_INBOUND_OUTCOMES) channelInbound.inc({ type, outcome }, 0);
  }
  let queueDepths: QueueDepths | null = null;
  new Gauge({
    name: "agentdesk_job_queue_depth",
    help: "Jobs waiting to run (queued or waiting for a retry), by queue; read at scrape time",
    labelNames: ["queue"] as const,
    registers,
    async collect() {
      this.reset();
      const depths = await queueDepths?.();
      for (const [queue, count] of depths ?? []) this.set({ queue }, count);
    },
  });

  return {
    registry,
    /** Where agentdesk_job_queue_depth reads from: the job runtime of the process. */
    readQueueDepthsFrom(read: QueueDepths): void {
      queueDepths = read;
    },
    /** One answered request: its method, route pattern (or UNMATCHED_ROUTE) and status. */
    httpRequest,
    modelCall(call: ModelCall): void {
      const labels: LabelValues<"provider" | "model"> = {
        provider: call.provider,
        model: call.model,
      };
      modelDuration.observe({ ...labels, outcome: call.ok ? "ok" : "error" }, call.seconds);
      if (call.inputTokens > 0)
        modelTokens.inc({ ...labels, direction: "input" }, call.inputTokens);
      if (call.outputTokens > 0) {
        modelTokens.inc({ ...labels, direction: "output" }, call.outputTokens);
      }
    },
    /** One ledger row: its feature and the credits it charged. */
    consumption(feature: string, credits: number): void {
      const label = featureLabel(feature);
      consumptionEvents.inc({ feature: label });
      if (credits > 0) creditsCharged.inc({ feature: label }, credits);
    },
    job(queue: string, outcome: JobOutcome, seconds: number): void {
      jobs.inc({ queue, outcome });
      jobDuration.observe({ queue }, seconds);
    },
    ingestion(outcome: IngestionOutcome): void {
      ingestions.inc({ outcome });
    },
    webhookAttempt(state: WebhookAttemptState): void {
      webhookAttempts.inc({ outcome: state });
    },
    /** One inbound platform request's verdict, or one message's (accepted, duplicate, ignored). */
    channelInbound(type: string, outcome: (typeof CHANNEL_INBOUND_OUTCOMES)[number]): void {
      channelInbound.inc({ type, outcome });
    },
    channelSend(type: string, outcome: "sent" | "retry" | "failed", seconds: number): void {
      channelSends.observe({ type, outcome }, seconds);
    },
    channelAnswered(type: string, seconds: number): void {
      channelAnswers.observe({ type }, seconds);
    },
    /** A conversation handed to a person; an unknown trigger counts as the model's. */
    handoff(trigger: string): void {
      handoffs.inc({
        trigger: (HANDOFF_TRIGGERS as readonly string[]).includes(trigger) ? trigger : "model",
      });
    },
    firstHumanReply(seconds: number): void {
      firstHumanReply.observe(seconds);
    },
    readWaitingForHumanFrom(read: () => Promise<number | null>): void {
      waitingForHuman = read;
    },
    /** The outcome of one POST /api/leads, from its status code. */
    leadSubmission(statusCode: number): void {
      leads.inc({ outcome: leadOutcomeOf(statusCode) });
    },
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

function leadOutcomeOf(statusCode: number): LeadOutcome {
  if (statusCode < 300) return "stored";
  if (statusCode === 429) return "rate_limited";
  if (statusCode < 500) return "invalid";
  return "error";
}
