import type { Db } from "../../db/client.ts";
import { AppError, notFound, unauthorized } from "../../lib/errors.ts";
import { newId } from "../../lib/ids.ts";
import {
  type Access,
  type AccessSnapshot,
  AGENT_MESSAGE_FEATURES,
  countsNeeded,
  evaluateAccess,
  usageLimitError,
} from "./billing-access.ts";
import type { BillingAccount, BillingAccountRepo } from "./billing-account-repo.ts";
import type { Billing, ChargeRequest, ChargeResult } from "./billing-port.ts";
import type { ConsumptionEventRepo, LedgerEntry } from "./consumption-event-repo.ts";
import { microToCredits } from "./credits.ts";
import { createUsagePricer, type PriceOf } from "./usage-pricing.ts";

export type CreditBalance = Access & {
  billingModel: "credits" | "legacy";
  credits: { total: number; used: number; remaining: number } | null;
};

/** How a charge behaves beyond recording: refuse when blocked, replay a keyed request. */
export type ChargeOptions = {
  /** Check `evaluateAccess` under the lock and refuse with 402 (the usage endpoint). */
  enforce: boolean;
  idempotency?: { key: string; requestHash: string };
};

export type RecordedCharge = { event: LedgerEntry; replayed: boolean };

export type BillingServiceDeps = {
  db: Db;
  accounts: BillingAccountRepo;
  events: ConsumptionEventRepo;
  priceOf: PriceOf;
  /** Told when usage names a model no price table knows; it is recorded at 0 credits. */
  onUnpriced: (usage: { feature: string; provider: string; modelName: string }) => void;
  now?: () => Date;
};

/** The ledger and the credit rules: implements `Billing` for every metered feature. */
export function createBillingService(deps: BillingServiceDeps) {
  const now = deps.now ?? (() => new Date());
  const priceUsage = createUsagePricer(deps.priceOf);

  /** Adds the agent-message count the decision needs (none for most organizations). */
  async function snapshotOf(
    organizationId: string,
    account: BillingAccount,
    at: Date,
    tx: Db,
  ): Promise<AccessSnapshot> {
    const { settings, buckets } = account;
    const counts = countsNeeded(settings, buckets.bucketCount, at);
    const agentMessages = counts
      ? await deps.events.countAgentMessages(
          organizationId,
          AGENT_MESSAGE_FEATURES,
          counts.since,
          counts.cap,
          tx,
        )
      : 0;
    return {
      ...settings,
      bucketCount: buckets.bucketCount,
      remainingMicro: buckets.remainingMicro,
      agentMessages,
    };
  }

  async function currentAccess(organizationId: string) {
    const at = now();
    const account = await deps.accounts.find(organizationId, at);
    if (!account) return null;
    const snapshot = await snapshotOf(organizationId, account, at, deps.db);
    return { account, access: evaluateAccess(snapshot) };
  }

  /**
   * Prices the usage and charges it: one statement (events.charge: lock, debit, event and day
   * totals) when nothing needs checking first; with `enforce`, a transaction that takes the lock,
   * replays a keyed request or refuses a blocked organization, then runs that statement.
   */
  async function chargeWith(request: ChargeRequest, options: ChargeOptions) {
    const at = now();
    const price = priceUsage(request);
    const { organizationId } = request;
    const entry: Omit<LedgerEntry, "creditsChargedMicro"> = {
      id: newId(),
      organizationId,
      agentId: request.agentId ?? null,
      feature: request.feature,
      provider: request.provider,
      modelName: request.modelName,
      inputTokens: request.inputTokens,
      outputTokens: request.outputTokens,
      units: request.units ?? null,
      creditsChargedRawMicro: price.rawMicro,
      creditsRequestedMicro: price.requestedMicro,
      billingCoefficient: price.coefficient,
      occurredAt: at,
      metadata: request.metadata ?? {},
      conversationId: request.conversationId ?? null,
      messageId: request.messageId ?? null,
      idempotencyKey: options.idempotency?.key ?? null,
      requestHash: options.idempotency?.requestHash ?? null,
    };
    const charge = async (tx: Db): Promise<RecordedCharge> => {
      const chargedMicro = await deps.events.charge(entry, price.requestedMicro, tx);
      if (chargedMicro === null) throw notFound(`Organization ${organizationId} not found`);
      return { event: { ...entry, creditsChargedMicro: chargedMicro }, replayed: false };
    };
    const recorded = !options.enforce
      ? await charge(deps.db)
      : await deps.db.transaction(async (tx): Promise<RecordedCharge> => {
          if (!(await deps.accounts.lock(organizationId, tx))) {
            throw notFound(`Organization ${organizationId} not found`);
          }
          if (options.idempotency) {
            const previous = await deps.events.findByIdempotencyKey(
              organizationId,
              options.idempotency.key,
              tx,
            );
            if (previous) {
              if (previous.requestHash !== options.idempotency.requestHash) {
                throw new AppError(
                  "CONFLICT",
                  "This Idempotency-Key was already used with a different request body",
                );
              }
              return { event: previous, replayed: true };
            }
          }
          const account = (await deps.accounts.find(organizationId, at, tx))!;
          const access = evaluateAccess(await snapshotOf(organizationId, account, at, tx));
          if (access.blockReason) throw usageLimitError(access.blockReason);
          return charge(tx);
        });
    if (!price.priced && !recorded.replayed) {
      deps.onUnpriced({
        feature: request.feature,
        provider: request.provider,
        modelName: request.modelName,
      });
    }
    return recorded;
  }

  const billing = {
    /** canRun and blockReason now, by the same function every metered action uses. */
    async access(organizationId: string): Promise<Access> {
      const current = await currentAccess(organizationId);
      if (!current) throw notFound(`Organization ${organizationId} not found`);
      return current.access;
    },

    async assertCanRun(organizationId: string): Promise<void> {
      const access = await billing.access(organizationId);
      if (access.blockReason) throw usageLimitError(access.blockReason);
    },

    /** Records usage after the fact: never refuses, caps the debit at what remains. */
    async charge(request: ChargeRequest): Promise<ChargeResult> {
      const { event } = await chargeWith(request, { enforce: false });
      return chargeResultOf(event);
    },

    /** Records usage only if the organization may run now (402 otherwise), once per key. */
    chargeIfAllowed(request: ChargeRequest, idempotency?: ChargeOptions["idempotency"]) {
      return chargeWith(request, { enforce: true, ...(idempotency ? { idempotency } : {}) });
    },

    /** GET /api/credits/balance; 401 when the key's organization no longer exists. */
    async balance(organizationId: string): Promise<CreditBalance> {
      const current = await currentAccess(organizationId);
      if (!current) throw unauthorized("The API key is not attached to an organization");
      const { settings, buckets } = current.account;
      return {
        billingModel: settings.billingModel,
        credits:
          settings.billingModel === "legacy"
            ? null
            : {
                total: microToCredits(buckets.grantedMicro),
                used: microToCredits(buckets.grantedMicro - buckets.remainingMicro),
                remaining: microToCredits(buckets.remainingMicro),
              },
        ...current.access,
      };
    },
  };
  return billing satisfies Billing;
}

export function chargeResultOf(event: LedgerEntry): ChargeResult {
  return {
    eventId: event.id,
    creditsCharged: microToCredits(event.creditsChargedMicro),
    creditsRequested: microToCredits(event.creditsRequestedMicro),
  };
}

export type BillingService = ReturnType<typeof createBillingService>;
