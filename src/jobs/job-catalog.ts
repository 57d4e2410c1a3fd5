import { z } from "zod";

/** Every background job: its payload schema and how pg-boss retries and expires it. */
export type JobDefinition = {
  schema: z.ZodType;
  retryLimit: number;
  retryDelaySeconds: number;
  retryBackoff: boolean;
  expireInSeconds: number;
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
  },
} satisfies Record<string, JobDefinition>;

export type JobName = keyof typeof jobCatalog;
export type JobData<Name extends JobName> = z.output<(typeof jobCatalog)[Name]["schema"]>;
export type JobMeta = { id: string; retryCount: number };
export type JobHandlers = {
  [Name in JobName]: (data: JobData<Name>, meta: JobMeta) => Promise<void>;
};
