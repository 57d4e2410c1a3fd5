import type { Db } from "../../db/client.ts";
import type { JobQueue } from "../../jobs/job-queue.ts";
import type { Logger } from "../../lib/logger.ts";
import { loadInstanceSecret } from "../instance/instance-secret-repo.ts";
import type { SubscriptionFanOut } from "../subscriptions/subscription-fanout.ts";
import { createLeadNotifier, type JsonPoster } from "./lead-notifier.ts";
import { createLeadRepo } from "./lead-repo.ts";
import { createLeadService } from "./lead-service.ts";

export type LeadModuleDeps = {
  db: Db;
  jobs: Pick<JobQueue, "send">;
  fetcher: JsonPoster;
  subscriptions: Pick<SubscriptionFanOut, "leadsCreated">;
  logger: Pick<Logger, "warn" | "error">;
  /** LEAD_NOTIFY_URL: where each new lead is posted; none when not set. */
  notifyUrl: string | undefined;
};

/**
 * Lead capture: POST /api/leads stores a lead (its IP hashed with this installation's key), and
 * the lead.notify job posts it to LEAD_NOTIFY_URL when one is set.
 */
export async function createLeadModule(deps: LeadModuleDeps) {
  const leadRepo = createLeadRepo(deps.db);
  const leads = createLeadService({
    leads: leadRepo,
    jobs: deps.jobs,
    subscriptions: deps.subscriptions,
    logger: deps.logger,
    ipHashKey: await loadInstanceSecret(deps.db, "lead-ip-hash-key"),
    notifyEnabled: deps.notifyUrl !== undefined,
  });
  const { notifyUrl } = deps;
  const notifyLead = notifyUrl
    ? createLeadNotifier({
        leads: leadRepo,
        fetcher: deps.fetcher,
        url: notifyUrl,
        logger: deps.logger,
      })
    : async () => {};
  return { leads, notifyLead };
}
