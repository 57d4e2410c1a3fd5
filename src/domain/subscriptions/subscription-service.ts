import type { Db } from "../../db/client.ts";
import { AppError, invalid, notFound } from "../../lib/errors.ts";
import { newId } from "../../lib/ids.ts";
import { FetchFailedError, type SafeFetcher, UnsafeUrlError } from "../../lib/safe-fetch.ts";
import type { AccountRepo } from "../accounts/account-repo.ts";
import type { AuditLog } from "../accounts/audit-log.ts";
import type { Caller } from "../caller.ts";
import type { SubscribableEvent } from "./subscription-events.ts";
import type { SubscriptionRepo, SubscriptionRow } from "./subscription-repo.ts";

/** More would make every event a fan-out of dozens of requests: one receiver can route. */
const MAX_SUBSCRIPTIONS = 25;
/** The deliveries GET /api/event-subscriptions/{id} shows, newest first. */
const RECENT_DELIVERIES = 20;

export type SubscriptionInput = { url: string; events: SubscribableEvent[] };

export type SubscriptionView = {
  id: string;
  url: string;
  events: SubscribableEvent[];
  createdAt: string;
};

function view(row: SubscriptionRow): SubscriptionView {
  // Written only from the validated names of SUBSCRIBABLE_EVENTS.
  const events = row.events as SubscribableEvent[];
  return { id: row.id, url: row.url, events, createdAt: row.createdAt.toISOString() };
}

const NOT_FOUND = (id: string) => notFound(`Event subscription ${id} not found`);

/** The organization's event subscriptions (DESIGN.md §12, docs/handoff.md). */
export function createSubscriptionService(deps: {
  db: Db;
  subscriptions: SubscriptionRepo;
  users: Pick<AccountRepo, "userById">;
  fetcher: Pick<SafeFetcher, "check">;
  audit: AuditLog;
}) {
  /** The address policy of every URL we post to: no private, loopback or metadata address. */
  async function allowedUrl(url: string): Promise<string> {
    try {
      await deps.fetcher.check(url);
    } catch (error) {
      if (error instanceof UnsafeUrlError) {
        throw invalid(`url is not allowed: ${error.message}`, [
          { path: "body.url", message: "is not a public http(s) address" },
        ]);
      }
      if (error instanceof FetchFailedError) {
        throw invalid(`url cannot be reached: ${error.message}`, [
          { path: "body.url", message: "has a host name that does not resolve" },
        ]);
      }
      throw error;
    }
    return url;
  }

  return {
    async create(caller: Caller, input: SubscriptionInput): Promise<SubscriptionView> {
      const url = await allowedUrl(input.url.trim());
      const events = [...new Set(input.events)];
      if (events.includes("lead.created")) {
        const user = await deps.users.userById(caller.userId);
        if (!user?.instanceAdmin) {
          throw new AppError(
            "FORBIDDEN",
            "lead.created is the instance's event (the site's lead form): only an instance administrator may subscribe to it",
          );
        }
      }
      const existing = await deps.subscriptions.list(caller.organizationId);
      if (existing.length >= MAX_SUBSCRIPTIONS) {
        throw new AppError(
          "CONFLICT",
          `An organization has at most ${MAX_SUBSCRIPTIONS} event subscriptions; delete one first`,
        );
      }
      const row = await deps.db.transaction(async (tx) => {
        const inserted = await deps.subscriptions.insert(
          {
            id: newId(),
            organizationId: caller.organizationId,
            url,
            events,
            createdByUserId: caller.userId,
          },
          tx,
        );
        await deps.audit.record(
          {
            organizationId: caller.organizationId,
            action: "event_subscription.created",
            actor: caller.actor,
            origin: caller.origin,
            target: { type: "event_subscription", id: inserted.id },
            details: { events },
          },
          tx,
        );
        return inserted;
      });
      return view(row);
    },

    async list(caller: Caller): Promise<{ data: SubscriptionView[] }> {
      const rows = await deps.subscriptions.list(caller.organizationId);
      return { data: rows.map(view) };
    },

    /** One subscription with its latest deliveries: what a receiver was sent and answered. */
    async get(caller: Caller, id: string) {
      const row = await deps.subscriptions.find(caller.organizationId, id);
      if (!row) throw NOT_FOUND(id);
      const deliveries = await deps.subscriptions.recentDeliveries(
        caller.organizationId,
        id,
        RECENT_DELIVERIES,
      );
      return {
        ...view(row),
        recentDeliveries: deliveries.map((delivery) => ({
          id: delivery.id,
          event: delivery.event,
          state: delivery.state,
          attempts: delivery.attemptCount,
          lastError: delivery.lastError,
          createdAt: delivery.createdAt.toISOString(),
          deliveredAt: delivery.deliveredAt?.toISOString() ?? null,
        })),
      };
    },

    async delete(caller: Caller, id: string): Promise<void> {
      await deps.db.transaction(async (tx) => {
        const deleted = await deps.subscriptions.delete(caller.organizationId, id, tx);
        if (!deleted) throw NOT_FOUND(id);
        await deps.audit.record(
          {
            organizationId: caller.organizationId,
            action: "event_subscription.deleted",
            actor: caller.actor,
            origin: caller.origin,
            target: { type: "event_subscription", id },
          },
          tx,
        );
      });
    },
  };
}

export type SubscriptionService = ReturnType<typeof createSubscriptionService>;
