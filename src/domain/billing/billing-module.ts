import type { Db } from "../../db/client.ts";
import type { Logger } from "../../lib/logger.ts";
import type { Metrics } from "../../ops/metrics.ts";
import { createBillingAccountRepo } from "./billing-account-repo.ts";
import { createBillingService } from "./billing-service.ts";
import { createConsumptionEventRepo } from "./consumption-event-repo.ts";
import { createConsumptionService } from "./consumption-service.ts";
import { createConsumptionSummaryRepo } from "./consumption-summary-repo.ts";
import { createUsageIncrementService } from "./usage-increment-service.ts";
import type { PriceOf } from "./usage-pricing.ts";

/**
 * The billing module wired to its repositories: `billing` (the `Billing` port plus canRun and
 * balance), `consumption` (ledger reads) and `usage` (the increment endpoint).
 */
export function createBillingModule(deps: {
  db: Db;
  priceOf: PriceOf;
  logger: Logger;
  metrics: Pick<Metrics, "consumption">;
}) {
  const accounts = createBillingAccountRepo(deps.db);
  const events = createConsumptionEventRepo(deps.db);
  const billing = createBillingService({
    db: deps.db,
    accounts,
    events,
    priceOf: deps.priceOf,
    onUnpriced: (usage) =>
      deps.logger.warn(usage, "usage of a model without a price was recorded at 0 credits"),
    onCharged: deps.metrics.consumption,
  });
  const consumption = createConsumptionService({
    events,
    summaries: createConsumptionSummaryRepo(deps.db),
  });
  const usage = createUsageIncrementService({ billing, accounts });
  return { billing, consumption, usage };
}
