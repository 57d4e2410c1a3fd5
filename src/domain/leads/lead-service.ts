import type { JobQueue } from "../../jobs/job-queue.ts";
import { newId } from "../../lib/ids.ts";
import type { Logger } from "../../lib/logger.ts";
import { hmacSha256Hex } from "../../lib/secrets.ts";
import { createWriteBatches } from "../../lib/write-batches.ts";
import type { SubscriptionFanOut } from "../subscriptions/subscription-fanout.ts";
import type { LeadRepo } from "./lead-repo.ts";
import type { LeadInput } from "./lead-request.ts";

export type LeadClient = { ip: string; userAgent: string | undefined };

const USER_AGENT_MAX = 512;

export function createLeadService(deps: {
  leads: Pick<LeadRepo, "insert">;
  jobs: Pick<JobQueue, "send">;
  /** Per-installation key: the stored IP hash cannot be reversed by hashing all addresses. */
  ipHashKey: string;
  notifyEnabled: boolean;
  /** lead.created for the event subscriptions of instance administrators. */
  subscriptions: Pick<SubscriptionFanOut, "leadsCreated">;
  logger: Pick<Logger, "warn">;
}) {
  // Leads stored together are announced together: one statement for all, which finds no
  // subscription (and writes nothing) on an instance where no administrator asked for them.
  const announcements = createWriteBatches<Record<string, unknown>>({
    maxBatch: 32,
    tookNoEffect: () => false,
    write: (leads) => deps.subscriptions.leadsCreated(leads),
  });

  return {
    /** Stores a lead from a site form and, when configured, queues its notification. */
    async create(input: LeadInput, client: LeadClient): Promise<{ id: string }> {
      const id = newId();
      await deps.leads.insert({
        id,
        ...input,
        ipHash: hmacSha256Hex(deps.ipHashKey, client.ip),
        userAgent: client.userAgent?.slice(0, USER_AGENT_MAX) ?? null,
      });
      if (deps.notifyEnabled) await deps.jobs.send("lead.notify", { leadId: id });
      // The lead is stored: a subscription that cannot be told now does not fail the form.
      await announcements
        .add({ id, ...input, createdAt: new Date().toISOString() })
        .catch((error: unknown) =>
          deps.logger.warn({ err: error, leadId: id }, "announcing lead.created failed"),
        );
      return { id };
    },
  };
}

export type LeadService = ReturnType<typeof createLeadService>;
