import { useQuery } from "@tanstack/react-query";
import { type ApiData, api, unwrap } from "../../api/client.ts";
import { formatInteger } from "../../ui/format.ts";
import { QueryView } from "../../ui/states.tsx";
import { formatCreditAmount } from "./usage-format.ts";

type Balance = ApiData<"/api/credits/balance", "get">;
type BlockReason = NonNullable<Balance["blockReason"]>;

/** Why agents cannot answer, in the words of docs/billing.md's table of block reasons. */
const BLOCK_REASONS: Record<BlockReason, string> = {
  payment_overdue: "The subscription's payment is overdue.",
  no_credits: "No credits are left: every granted credit is spent or has expired.",
  query_limit: "This month's message limit of the legacy plan is reached.",
  free_plan_limit: "The free plan's included agent messages are used up.",
};

function Stat({ label, value }: { label: string; value: string }) {
  return (
    <div className="stat">
      <p className="stat-label">{label}</p>
      <p className="stat-value">{value}</p>
    </div>
  );
}

function BalanceView({ balance }: { balance: Balance }) {
  return (
    <>
      <div className="usage-can-run">
        {balance.canRun ? (
          <p>
            <span className="badge badge-ok">Can run</span> Agents can answer new messages.
          </p>
        ) : (
          <p>
            <span className="badge badge-danger">Cannot run</span> Agents refuse new messages.{" "}
            {balance.blockReason ? BLOCK_REASONS[balance.blockReason] : null}
          </p>
        )}
      </div>
      <div className="grid usage-stats">
        <Stat
          label="Billing model"
          value={balance.billingModel === "credits" ? "Credits" : "Legacy"}
        />
        {balance.credits && (
          <>
            <Stat label="Credits granted" value={formatCreditAmount(balance.credits.total)} />
            <Stat label="Credits used" value={formatCreditAmount(balance.credits.used)} />
            <Stat label="Credits remaining" value={formatCreditAmount(balance.credits.remaining)} />
          </>
        )}
        {balance.freePlan && (
          <Stat
            label="Free plan messages left"
            value={`${formatInteger(balance.freePlan.remaining)} of ${formatInteger(balance.freePlan.included)}`}
          />
        )}
      </div>
      {balance.freePlan && (
        <p className="muted">
          On the free plan: {formatInteger(balance.freePlan.used)} of the{" "}
          {formatInteger(balance.freePlan.included)} included agent messages used. Granting credits
          ends the free plan.
        </p>
      )}
    </>
  );
}

/** The organization's balance now (GET /api/credits/balance): not affected by the period. */
export function BalanceCard() {
  const query = useQuery({
    queryKey: ["usage", "balance"],
    queryFn: () => unwrap(api.GET("/api/credits/balance")),
  });
  return (
    <section className="card" aria-labelledby="usage-balance">
      <h2 id="usage-balance">Balance</h2>
      <QueryView query={query} loadingLabel="Loading the balance…">
        {(balance) => <BalanceView balance={balance} />}
      </QueryView>
    </section>
  );
}
