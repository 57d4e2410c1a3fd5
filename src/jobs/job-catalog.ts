import { z } from "zod";

/**
 * Every background job: its payload schema, how pg-boss retries it, and how long one run may
 * take. A run holds its job with a short lease that its process renews (JOB_LEASE_SECONDS, see
 * job-workers.ts), so a job whose process died is retried after the lease, not after the timeout.
 */
export type JobDefinition = {
  schema: z.ZodType;
  /**
   * Retries after a failed run, a timed-out run or a run whose process died; but a job is never
   * run a third time after two runs that ended with their process (a poison job, job-workers.ts).
   */
  retryLimit: number;
  retryDelaySeconds: number;
  retryBackoff: boolean;
  /** The longest one run may take: past it the run is abandoned and the job failed (retried). */
  timeoutSeconds: number;
  /** A queue of this catalog that receives the job once it failed for good (pg-boss dead letter). */
  deadLetter?: string;
  /**
   * pg-boss workers of this queue in each worker process (default 1), each fetching up to
   * `batchSize` jobs per poll (default 1) and running them side by side: for jobs that mostly
   * wait on the network, where one at a time every half second would cap throughput.
   */
  workers?: number;
  batchSize?: number;
  /** A cron expression in UTC: pg-boss sends the job (with empty data) on this schedule. */
  schedule?: string;
};

const ingestJob = z.object({
  organizationId: z.string(),
  datasourceId: z.string(),
  generation: z.number().int(),
});

export const jobCatalog = {
  "lead.notify": {
    schema: z.object({ leadId: z.string() }),
    retryLimit: 5,
    retryDelaySeconds: 30,
    retryBackoff: true,
    timeoutSeconds: 60,
  },
  // One sync of one datasource generation. The handler catches every failure and records it on
  // the datasource, and stops itself at KNOWLEDGE_INGEST_TIMEOUT_MS (at most 50 min); so a retry
  // only happens when the run's process died (or the database failed under it), a few seconds
  // after its lease ran out. A job whose second run ends with its process is given up at once
  // (job-workers.ts), as after the last retry: it goes to knowledge.ingest.abandoned.
  "knowledge.ingest": {
    schema: ingestJob,
    retryLimit: 3,
    retryDelaySeconds: 5,
    retryBackoff: false,
    timeoutSeconds: 3_600,
    deadLetter: "knowledge.ingest.abandoned",
    // One job per half-second poll would hold a folder of small uploads to two files a second;
    // web pages mostly wait on the network. Up to eight run side by side in each worker process.
    workers: 2,
    batchSize: 4,
  },
  // A sync whose runs all died: its datasource ends in error rather than waiting forever.
  "knowledge.ingest.abandoned": {
    schema: ingestJob,
    retryLimit: 5,
    retryDelaySeconds: 5,
    retryBackoff: true,
    timeoutSeconds: 60,
  },
  // Queues the re-sync of every datasource whose scheduled time has come (sync-scheduler.ts).
  // No retry: the next minute's run takes whatever this one left due.
  "knowledge.sync-schedule": {
    schema: z.object({}),
    retryLimit: 0,
    retryDelaySeconds: 0,
    retryBackoff: false,
    timeoutSeconds: 300,
    schedule: "* * * * *",
  },
  // Closes one batching window of conversational mode: one model call for its messages, the
  // answer stored, the first delivery attempt. The handler is idempotent (the window is claimed
  // with a lease, attempts are a compare-and-set); retries cover a worker that died or a database
  // that failed: the first a few seconds later, then doubling, for about an hour in all.
  "webhook.window": {
    schema: z.object({ organizationId: z.string(), windowId: z.string() }),
    retryLimit: 9,
    retryDelaySeconds: 5,
    retryBackoff: true,
    timeoutSeconds: 900,
    // Closing a window waits on the model: many side by side, and one worker free to poll while
    // others wait, so a window that closes is picked up within a fraction of a second.
    workers: 4,
    batchSize: 8,
  },
  // One attempt of one webhook delivery. Failed attempts are not job failures: the next attempt
  // is a new job at the configured backoff. pg-boss retries only cover a worker that died or a
  // database that failed.
  "webhook.deliver": {
    schema: z.object({
      organizationId: z.string(),
      deliveryId: z.string(),
      attempt: z.number().int().min(1),
    }),
    retryLimit: 9,
    retryDelaySeconds: 5,
    retryBackoff: true,
    timeoutSeconds: 180,
    workers: 2,
    batchSize: 8,
  },
  // Queues again the webhook attempts whose job was lost (webhook-delivery-service.ts). No
  // retry: the next minute's run takes whatever this one left.
  "webhook.recover": {
    schema: z.object({}),
    retryLimit: 0,
    retryDelaySeconds: 0,
    retryBackoff: false,
    timeoutSeconds: 60,
    schedule: "* * * * *",
  },
  // Works one channel conversation's lane (domain/channels/channel-turns.ts): answers the
  // messages whose batching delay has passed, then sends what is queued, in order. The lane is
  // leased, so runs of one thread never overlap; a run that finds it taken comes back shortly.
  // Retries cover a worker that died or a database that failed.
  "channel.turn": {
    schema: z.object({ organizationId: z.string(), threadId: z.string() }),
    retryLimit: 9,
    retryDelaySeconds: 5,
    retryBackoff: true,
    timeoutSeconds: 900,
    // Mostly waiting on the model and the platforms: many conversations side by side.
    workers: 4,
    batchSize: 8,
  },
  // One eval run (domain/evaluation/eval-runner.ts): replays the set's cases not done yet, one
  // after the other, recording each once; so a retry (its process died, its hour ran out) goes on
  // where the last run stopped. A run whose retries are all used up is failed by
  // eval.run.abandoned, its cases done so far kept.
  "eval.run": {
    schema: z.object({ organizationId: z.string(), runId: z.string() }),
    retryLimit: 5,
    retryDelaySeconds: 5,
    retryBackoff: true,
    timeoutSeconds: 3_600,
    deadLetter: "eval.run.abandoned",
    // Runs of several sets (or organizations) side by side, each mostly waiting on the model.
    workers: 2,
  },
  "eval.run.abandoned": {
    schema: z.object({ organizationId: z.string(), runId: z.string() }),
    retryLimit: 5,
    retryDelaySeconds: 5,
    retryBackoff: true,
    timeoutSeconds: 60,
  },
  // The retention sweep (docs/retention.md), daily at 03:15 UTC. It erases in short batches, and
  // a second run at the same time takes disjoint ones, so a retry after a death is harmless.
  "retention.sweep": {
    schema: z.object({}),
    retryLimit: 2,
    retryDelaySeconds: 300,
    retryBackoff: false,
    timeoutSeconds: 3_600,
    schedule: "15 3 * * *",
  },
  // E-mails the people who can reply that a customer asks for a person (handoff-notifier.ts).
  // Retried while the mail server refuses; a conversation someone already answered is skipped.
  "handoff.notify": {
    schema: z.object({
      organizationId: z.string(),
      agentId: z.string(),
      conversationId: z.string(),
    }),
    retryLimit: 8,
    retryDelaySeconds: 30,
    retryBackoff: true,
    timeoutSeconds: 120,
  },
  // Drops live events past their hour (domain/events/event-module.ts): one DELETE; a run that
  // fails is simply done by the next.
  "events.prune": {
    schema: z.object({}),
    retryLimit: 0,
    retryDelaySeconds: 0,
    retryBackoff: false,
    timeoutSeconds: 60,
    schedule: "*/5 * * * *",
  },
} satisfies Record<string, JobDefinition>;

export type JobName = keyof typeof jobCatalog;
export type JobData<Name extends JobName> = z.output<(typeof jobCatalog)[Name]["schema"]>;
export type JobMeta = {
  id: string;
  /** Earlier runs of this job (0 on the first). */
  retryCount: number;
  /** Aborted when the run lost its job: its lease ran out, or it passed its timeout. */
  signal: AbortSignal;
};
export type JobHandlers = {
  [Name in JobName]: (data: JobData<Name>, meta: JobMeta) => Promise<void>;
};
