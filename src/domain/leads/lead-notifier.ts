import type { LeadRepo } from "./lead-repo.ts";

/** The slice of the SSRF-safe fetcher the notifier needs. */
export type JsonPoster = {
  fetch(
    url: string,
    init: { method: string; headers: Record<string, string>; body: string; timeoutMs?: number },
  ): Promise<{ status: number }>;
};

/** Thrown so the job queue retries the notification later. */
export class LeadNotificationError extends Error {
  override name = "LeadNotificationError";
}

/** Job handler: POSTs a stored lead to LEAD_NOTIFY_URL (e.g. a CRM or chat webhook). */
export function createLeadNotifier(deps: {
  leads: Pick<LeadRepo, "findById">;
  fetcher: JsonPoster;
  url: string;
}) {
  return async function notifyLead(leadId: string): Promise<void> {
    const lead = await deps.leads.findById(leadId);
    if (!lead) return;
    const { ipHash: _ipHash, userAgent: _userAgent, ...publicFields } = lead;
    const response = await deps.fetcher.fetch(deps.url, {
      method: "POST",
      headers: { "content-type": "application/json", "x-service-event": "lead.created" },
      body: JSON.stringify({
        event: "lead.created",
        lead: { ...publicFields, createdAt: lead.createdAt.toISOString() },
      }),
      timeoutMs: 10_000,
    });
    if (response.status < 200 || response.status >= 300) {
      throw new LeadNotificationError(`Lead notification answered HTTP ${response.status}`);
    }
  };
}
