import type { Db } from "../../db/client.ts";
import type { JobQueue } from "../../jobs/job-queue.ts";
import type { PublishedEvent } from "../events/event-types.ts";
import { type SubscribableEvent, subscriptionPayload } from "./subscription-events.ts";
import type { SubscribedEvent, SubscriptionRepo } from "./subscription-repo.ts";

/** The subscription event a live event is, if any: a resolve is an update to RESOLVED. */
function subscribableOf(event: PublishedEvent): SubscribableEvent | null {
  if (event.name === "conversation.updated") {
    return event.data.status === "RESOLVED" ? "conversation.resolved" : null;
  }
  return event.name;
}

/**
 * From events to deliveries: each event becomes one webhook delivery per subscription that asked
 * for it, made in the transaction of the change it reports with its first attempt queued there
 * too, so it is delivered exactly when the change commits, and once.
 */
export function createSubscriptionFanOut(deps: {
  subscriptions: Pick<SubscriptionRepo, "fanOut">;
  jobs: Pick<JobQueue, "send">;
}) {
  async function deliver(events: SubscribedEvent[], tx?: Db) {
    const deliveries = await deps.subscriptions.fanOut(events, tx);
    for (const { id, organizationId } of deliveries) {
      await deps.jobs.send(
        "webhook.deliver",
        { organizationId, deliveryId: id, attempt: 1 },
        tx ? { tx } : {},
      );
    }
  }

  return {
    /** Live events, as the event publisher hands them over, in its transaction. */
    async published(events: readonly PublishedEvent[], tx?: Db): Promise<void> {
      const subscribed: SubscribedEvent[] = [];
      for (const event of events) {
        const name = subscribableOf(event);
        if (!name) continue;
        const about = { agentId: event.agentId, conversationId: event.conversationId };
        subscribed.push({
          organizationId: event.organizationId,
          name,
          ...about,
          payload: subscriptionPayload(name, about, event.data),
          administratorsOnly: false,
        });
      }
      if (subscribed.length > 0) await deliver(subscribed, tx);
    },

    /**
     * Leads from the site's form: the instance's, so delivered to the subscriptions that
     * instance administrators made, in whichever organization.
     */
    async leadsCreated(leads: readonly Record<string, unknown>[]): Promise<void> {
      await deliver(
        leads.map((lead) => ({
          organizationId: null,
          name: "lead.created",
          agentId: null,
          conversationId: null,
          payload: subscriptionPayload("lead.created", {}, { lead }),
          administratorsOnly: true,
        })),
      );
    },
  };
}

export type SubscriptionFanOut = ReturnType<typeof createSubscriptionFanOut>;
