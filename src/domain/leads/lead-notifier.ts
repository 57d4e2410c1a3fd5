import type { Logger } from "../../lib/logger.ts";
import { UnsafeUrlError } from "../../lib/safe-fetch.ts";
import type { LeadRepo } from "./lead-repo.ts";

/** The slice of the SSRF-safe fetcher the notifier needs. */
export type JsonPoster = {
  fetch(
    url: string,
    init: { method: string; headers: Record<string, string>; body: string; timeoutMs?: number },
  ): Promise<{ status: number }>;
};

/** Thrown so the job queue retries the notification later. */
class LeadNotificationError extends Error {
  override name = "LeadNotificationError";
}

// Client errors that say "not now" rather than "never": request timeout, too many requests.
const RETRYABLE_CLIENT_ERRORS = new Set([408, 429]);

/**
 * Job handler: POSTs a stored lead to LEAD_NOTIFY_URL (e.g. a CRM or chat webhook). A 5xx
 * answer, a timeout or a failed connection is retried (the job's retries, with backoff); a
 * refusal that retrying cannot change is logged once and given up: the address policy refusing
 * the URL, or a 4xx answer other than 408 and 429.
 */
export function createLeadNotifier(deps: {
  leads: Pick<LeadRepo, "findById">;
  fetcher: JsonPoster;
  url: string;
  logger: Pick<Logger, "error">;
}) {
  const giveUp = (leadId: string, reason: string) =>
    deps.logger.error({ leadId, reason }, "lead notification to LEAD_NOTIFY_URL given up");

  return async function notifyLead(leadId: string): Promise<void> {
    const lead = await deps.leads.findById(leadId);
    if (!lead) return;
    const { ipHash: _ipHash, userAgent: _userAgent, ...publicFields } = lead;
    let status: number;
    try {
      ({ status } = await deps.fetcher.fetch(deps.url, {
        method: "POST",
        headers: { "content-type": "application/json", "x-service-event": "lead.created" },
        body: JSON.stringify({
          event: "lead.created",
          lead: { ...publicFields, createdAt: lead.createdAt.toISOString() },
        }),
        timeoutMs: 10_000,
      }));
    } catch (error) {
      if (error instanceof UnsafeUrlError && error.reason !== "too_many_redirects") {
        return giveUp(leadId, error.message);
      }
      throw error;
    }
    if (status >= 200 && status < 300) return;
    if (status >= 400 && status < 500 && !RETRYABLE_CLIENT_ERRORS.has(status)) {
      return giveUp(leadId, `HTTP ${status}`);
    }
    throw new LeadNotificationError(`Lead notification answered HTTP ${status}`);
  };
}
