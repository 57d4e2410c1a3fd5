import { z } from "zod";

/** Every background job: its payload schema and how pg-boss retries and expires it. */
export type JobDefinition = {
  schema: z.ZodType;
  retryLimit: number;
  retryDelaySeconds: number;
  retryBackoff: boolean;
  expireInSeconds: number;
  /**
   * pg-boss workers of this queue in each worker process (default 1), each fetching up to
   * `batchSize` jobs per poll (default 1) and running them side by side: for jobs that mostly
   * wait on the network, where one at a time every half second would cap throughput.
   */
  workers?: number;
  batchSize?: number;
};

export const jobCatalog = {
  "lead.notify": {
    schema: z.object({ leadId: z.string() }),
    retryLimit: 5,
    retryDelaySeconds: 30,
    retryBackoff: true,
    expireInSeconds: 60,
  },
  // One sync of one datasource generation. The handler catches every failure and records it on
  // the datasource; a retry only happens when a worker died and pg-boss expired the job. The
  // expiry is above the longest KNOWLEDGE_INGEST_TIMEOUT_MS, which the handler enforces itself.
  "knowledge.ingest": {
    schema: z.object({
      organizationId: z.string(),
      datasourceId: z.string(),
      generation: z.number().int(),
    }),
    retryLimit: 1,
    retryDelaySeconds: 30,
    retryBackoff: false,
    expireInSeconds: 3_600,
    // One job per half-second poll would hold a folder of small uploads to two files a second;
    // web pages mostly wait on the network. Up to eight run side by side in each worker process.
    workers: 2,
    batchSize: 4,
  },
  // Closes one batching window of conversational mode: one model call for its messages, the
  // answer stored, the first delivery attempt. The handler is idempotent (the window is claimed
  // with a lease, attempts are a compare-and-set); retries cover a worker that died or a database
  // that failed, and outlast the lease (model timeout + delivery timeout + a minute).
  "webhook.window": {
    schema: z.object({ organizationId: z.string(), windowId: z.string() }),
    retryLimit: 6,
    retryDelaySeconds: 30,
    retryBackoff: true,
    expireInSeconds: 900,
    // Closing a window waits on the model: many side by side, and one worker free to poll while
    // others wait, so a window that closes is picked up within a fraction of a second.
    workers: 4,
    batchSize: 8,
  },
  // One attempt of one webhook delivery. Failed attempts are not job failures: the next attempt
  // is a new job at the configured backoff. pg-boss retries only cover a worker that died.
  "webhook.deliver": {
    schema: z.object({
      organizationId: z.string(),
      deliveryId: z.string(),
      attempt: z.number().int().min(1),
    }),
    retryLimit: 5,
    retryDelaySeconds: 30,
    retryBackoff: true,
    expireInSeconds: 180,
    workers: 2,
    batchSize: 8,
  },
} satisfies Record<string, JobDefinition>;

export type JobName = keyof typeof jobCatalog;
export type JobData<Name extends JobName> = z.output<(typeof jobCatalog)[Name]["schema"]>;
export type JobMeta = { id: string; retryCount: number };
export type JobHandlers = {
  [Name in JobName]: (data: JobData<Name>, meta: JobMeta) => Promise<void>;
};
