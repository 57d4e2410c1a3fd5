import type { Db } from "../../db/client.ts";
import type { JobQueue } from "../../jobs/job-queue.ts";
import type { SafeFetcher } from "../../lib/safe-fetch.ts";
import type { AccountRepo } from "../accounts/account-repo.ts";
import type { AuditLog } from "../accounts/audit-log.ts";
import { createSubscriptionFanOut } from "./subscription-fanout.ts";
import { createSubscriptionRepo } from "./subscription-repo.ts";
import { createSubscriptionService } from "./subscription-service.ts";

/** Event subscriptions: their API, and the fan-out of events into their webhook deliveries. */
export function createSubscriptionModule(deps: {
  db: Db;
  jobs: Pick<JobQueue, "send">;
  fetcher: Pick<SafeFetcher, "check">;
  audit: AuditLog;
  users: Pick<AccountRepo, "userById">;
}) {
  const subscriptions = createSubscriptionRepo(deps.db);
  return {
    eventSubscriptions: createSubscriptionService({
      db: deps.db,
      subscriptions,
      users: deps.users,
      fetcher: deps.fetcher,
      audit: deps.audit,
    }),
    subscriptionFanOut: createSubscriptionFanOut({ subscriptions, jobs: deps.jobs }),
  };
}
