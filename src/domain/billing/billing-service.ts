import type { Db } from "../../db/client.ts";
import { executePart, type StatementPart } from "../../db/statement-parts.ts";
import { AppError, notFound, unauthorized } from "../../lib/errors.ts";
import { newId } from "../../lib/ids.ts";
import {
  type Access,
  type AccessSnapshot,
  AGENT_MESSAGE_FEATURES,
  countsNeeded,
  evaluateAccess,
  type FreePlanMessages,
  freePlanMessagesOf,
  refuseSpentKeyBudget,
  usageLimitError,
} from "./billing-access.ts";
import type { BillingAccount, BillingAccountRepo } from "./billing-account-repo.ts";
import {
  type Billing,
  type ChargeRequest,
  type ChargeResult,
  type Reservation,
  type ReservationCheck,
  type ReservationRequest,
  releasingOnFailure,
} from "./billing-port.ts";
import type { ConsumptionEventRepo, LedgerEntry } from "./consumption-event-repo.ts";
import { microToCredits } from "./credits.ts";
import { createUsagePricer, type PriceOf } from "./usage-pricing.ts";

export type CreditBalance = Access & {
  billingModel: "credits" | "legacy";
  credits: { total: number; used: number; remaining: number } | null;
  /** Extension: the free plan's included agent messages, null when not on the free plan. */
  freePlan: FreePlanMessages | null;
};

/** A keyed request is charged once: a retry with the same key and body gets the first charge. */
export type Idempotency = { key: string; requestHash: string };

export type RecordedCharge = { event: LedgerEntry; replayed: boolean };

export type BillingServiceDeps = {
  db: Db;
  accounts: BillingAccountRepo;
  events: ConsumptionEventRepo;
  priceOf: PriceOf;
  /** Told when usage names a model no price table knows; it is recorded at 0 credits. */
  onUnpriced: (usage: { feature: string; provider: string; modelName: string }) => void;
  /** Told of every ledger row written, with the credits it charged. */
  onCharged: (feature: string, credits: number) => void;
  now?: () => Date;
};

/** The ledger and the credit rules: implements `Billing` for every metered feature. */
export function createBillingService(deps: BillingServiceDeps) {
  const now = deps.now ?? (() => new Date());
  const priceUsage = createUsagePricer(deps.priceOf);

  /**
   * Adds the agent-message count the decision needs (none for most organizations). What running
   * actions hold counts as spent: credits held are not remaining, messages held are used.
   */
  async function snapshotOf(
    organizationId: string,
    account: BillingAccount,
    at: Date,
    tx: Db,
  ): Promise<AccessSnapshot> {
    const { settings, buckets, held } = account;
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
      remainingMicro: buckets.remainingMicro - held.micro,
      agentMessages: agentMessages + held.agentMessages,
    };
  }

  /** Throws USAGE_LIMIT (402) when the account's organization may not run at `at`. */
  async function assertAccess(organizationId: string, account: BillingAccount, at: Date, tx: Db) {
    const access = evaluateAccess(await snapshotOf(organizationId, account, at, tx));
    if (access.blockReason) throw usageLimitError(access.blockReason);
  }

  async function currentAccess(organizationId: string) {
    const at = now();
    const account = await deps.accounts.find(organizationId, at);
    if (!account) return null;
    const snapshot = await snapshotOf(organizationId, account, at, deps.db);
    return { account, access: evaluateAccess(snapshot), freePlan: freePlanMessagesOf(snapshot) };
  }

  /** The ledger entry of a request, priced; its charge is what billing_debit decides. */
  function entryOf(request: ChargeRequest, idempotency?: Idempotency) {
    const price = priceUsage(request);
    const entry: Omit<LedgerEntry, "creditsChargedMicro"> = {
      id: newId(),
      organizationId: request.organizationId,
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
      occurredAt: now(),
      metadata: request.metadata ?? {},
      conversationId: request.conversationId ?? null,
      messageId: request.messageId ?? null,
      idempotencyKey: idempotency?.key ?? null,
      requestHash: idempotency?.requestHash ?? null,
      apiKeyId: request.apiKeyId ?? null,
    };
    return { price, entry };
  }

  /** One statement part (events.chargePart: lock, debit, event and day totals). */
  function chargePartOf(
    request: ChargeRequest,
    idempotency?: Idempotency,
  ): StatementPart<LedgerEntry> {
    const { price, entry } = entryOf(request, idempotency);
    const part = deps.events.chargePart(entry, price.requestedMicro, request.reservationId);
    return {
      ...part,
      read(row) {
        const chargedMicro = part.read(row);
        if (chargedMicro === null) throw notFound(`Organization ${entry.organizationId} not found`);
        if (!price.priced) {
          deps.onUnpriced({
            feature: request.feature,
            provider: request.provider,
            modelName: request.modelName,
          });
        }
        deps.onCharged(entry.feature, microToCredits(chargedMicro));
        return { ...entry, creditsChargedMicro: chargedMicro };
      },
    };
  }

  /**
   * Charges only if the organization may run now: a transaction that takes the lock, replays a
   * keyed request or refuses a blocked organization, then runs the charge's statement.
   */
  function chargeIfAllowed(
    request: ChargeRequest,
    idempotency?: Idempotency,
  ): Promise<RecordedCharge> {
    const { organizationId } = request;
    return deps.db.transaction(async (tx): Promise<RecordedCharge> => {
      if (!(await deps.accounts.lock(organizationId, tx))) {
        throw notFound(`Organization ${organizationId} not found`);
      }
      if (idempotency) {
        const previous = await deps.events.findByIdempotencyKey(
          organizationId,
          idempotency.key,
          tx,
        );
        if (previous) {
          if (previous.requestHash !== idempotency.requestHash) {
            throw new AppError(
              "CONFLICT",
              "This Idempotency-Key was already used with a different request body",
            );
          }
          return { event: previous, replayed: true };
        }
      }
      const at = now();
      await assertAccess(
        organizationId,
        (await deps.accounts.find(organizationId, at, tx))!,
        at,
        tx,
      );
      // A key's budget, like credits: refused once spent; the debit caps the last charge.
      if (request.apiKeyId) {
        refuseSpentKeyBudget(await deps.accounts.keyBudget(request.apiKeyId, at, tx));
      }
      return { event: await executePart(tx, chargePartOf(request, idempotency)), replayed: false };
    });
  }

  const billing = {
    async assertCanRun(organizationId: string): Promise<void> {
      const at = now();
      const account = await deps.accounts.find(organizationId, at);
      if (!account) throw notFound(`Organization ${organizationId} not found`);
      await assertAccess(organizationId, account, at, deps.db);
    },

    async reserve(request: ReservationRequest): Promise<Reservation> {
      const finishCheck = await executePart(deps.db, billing.reservePart(request));
      return finishCheck();
    },

    reservePart(request: ReservationRequest): StatementPart<ReservationCheck> {
      const at = now();
      const reservation: Reservation = { id: newId(), organizationId: request.organizationId };
      const part = deps.accounts.reservePart({
        ...reservation,
        estimateMicro: priceUsage(request).requestedMicro,
        agentMessage: (AGENT_MESSAGE_FEATURES as readonly string[]).includes(request.feature),
        at,
        expiresAt: new Date(at.getTime() + request.holdMs),
        apiKeyId: request.apiKeyId ?? null,
      });
      return {
        ...part,
        read(row) {
          const account = part.read(row);
          return async () => {
            if (!account) throw notFound(`Organization ${request.organizationId} not found`);
            await releasingOnFailure(billing, reservation, async () => {
              await assertAccess(request.organizationId, account, at, deps.db);
              refuseSpentKeyBudget(account.keyBudget);
            });
            return reservation;
          };
        },
      };
    },

    async release(reservation: Reservation): Promise<void> {
      await deps.accounts.release(reservation.organizationId, reservation.id);
    },

    /** Records usage after the fact: never refuses, caps the debit at what remains. */
    async charge(request: ChargeRequest): Promise<ChargeResult> {
      return executePart(deps.db, billing.chargePart(request));
    },

    chargePart(request: ChargeRequest): StatementPart<ChargeResult> {
      const part = chargePartOf(request);
      return { ...part, read: (row) => chargeResultOf(part.read(row)) };
    },

    /** Records usage only if the organization may run now (402 otherwise), once per key. */
    chargeIfAllowed,

    /** The organization's plan, which knowledge's stored-token limits are keyed by. */
    planOf: (organizationId: string, tx?: Db) => deps.accounts.planOf(organizationId, tx),

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
        freePlan: current.freePlan,
      };
    },
  };
  return billing satisfies Billing;
}

function chargeResultOf(event: LedgerEntry): ChargeResult {
  return {
    eventId: event.id,
    creditsCharged: microToCredits(event.creditsChargedMicro),
    creditsRequested: microToCredits(event.creditsRequestedMicro),
  };
}

export type BillingService = ReturnType<typeof createBillingService>;
