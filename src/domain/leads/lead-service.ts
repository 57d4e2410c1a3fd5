import type { JobQueue } from "../../jobs/job-queue.ts";
import { newId } from "../../lib/ids.ts";
import { hmacSha256Hex } from "../../lib/secrets.ts";
import type { LeadInput } from "./lead-input.ts";
import type { LeadRepo } from "./lead-repo.ts";

export type LeadClient = { ip: string; userAgent: string | undefined };

const USER_AGENT_MAX = 512;

export function createLeadService(deps: {
  leads: Pick<LeadRepo, "insert">;
  jobs: Pick<JobQueue, "send">;
  /** Per-installation key: the stored IP hash cannot be reversed by hashing all addresses. */
  ipHashKey: string;
  notifyEnabled: boolean;
}) {
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
      return { id };
    },
  };
}

export type LeadService = ReturnType<typeof createLeadService>;
