import { AppError } from "../../lib/errors.ts";
import type { KeyBudget } from "./billing-account-repo.ts";
import { microToCredits } from "./credits.ts";

export type BlockReason = "payment_overdue" | "no_credits" | "query_limit" | "free_plan_limit";

export type Access = { canRun: boolean; blockReason: BlockReason | null };

/** Agent messages included in the free plan, over the organization's whole life. */
const FREE_PLAN_MESSAGES = 5;

/**
 * Features that count as one agent message (or query) each: for the free plan's 5 messages and
 * for a legacy organization's monthly query limit.
 */
export const AGENT_MESSAGE_FEATURES = ["chat", "agent_run", "follow_up"] as const;

/** Everything the decision needs, read at one moment. */
export type AccessSnapshot = {
  billingModel: "credits" | "legacy";
  subscriptionStatus: "active" | "past_due" | "none";
  queryLimit: number | null;
  /** Buckets ever granted, expired or spent ones included. */
  bucketCount: number;
  /** Credits left in buckets that have not expired. */
  remainingMicro: number;
  /** Agent messages counted by `countsNeeded` (capped at what the decision needs), else 0. */
  agentMessages: number;
};

type Settings = Pick<AccessSnapshot, "billingModel" | "subscriptionStatus" | "queryLimit">;

/** An organization on the free plan: no credit bucket, no active subscription, no legacy limit. */
function isOnFreePlan(settings: Settings, bucketCount: number): boolean {
  if (settings.billingModel === "legacy" && settings.queryLimit !== null) return false;
  return bucketCount === 0 && settings.subscriptionStatus !== "active";
}

/**
 * True when credit buckets pay for usage (and so cap every charge at what remains). The debit
 * itself applies the same rule in SQL (billing_debit, migration 0012): change both together.
 */
function isFundedByBuckets(settings: Settings, bucketCount: number): boolean {
  return settings.billingModel === "credits" && bucketCount > 0;
}

/**
 * Which agent messages the decision must count: a legacy limit counts the current UTC calendar
 * month, the free plan counts all time; `cap` bounds the count so it never scans further.
 */
export function countsNeeded(
  settings: Settings,
  bucketCount: number,
  now: Date,
): { since: Date | null; cap: number } | null {
  if (settings.subscriptionStatus === "past_due") return null;
  if (settings.billingModel === "legacy" && settings.queryLimit !== null) {
    return {
      since: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)),
      cap: settings.queryLimit,
    };
  }
  if (isOnFreePlan(settings, bucketCount)) return { since: null, cap: FREE_PLAN_MESSAGES };
  return null;
}

/**
 * The one decision behind canRun, GET /api/credits/balance and every metered action's 402, in
 * the spec's order of block reasons.
 */
export function evaluateAccess(snapshot: AccessSnapshot): Access {
  if (snapshot.subscriptionStatus === "past_due") return blocked("payment_overdue");
  if (isFundedByBuckets(snapshot, snapshot.bucketCount) && snapshot.remainingMicro <= 0) {
    return blocked("no_credits");
  }
  if (
    snapshot.billingModel === "legacy" &&
    snapshot.queryLimit !== null &&
    snapshot.agentMessages >= snapshot.queryLimit
  ) {
    return blocked("query_limit");
  }
  if (
    isOnFreePlan(snapshot, snapshot.bucketCount) &&
    snapshot.agentMessages >= FREE_PLAN_MESSAGES
  ) {
    return blocked("free_plan_limit");
  }
  return { canRun: true, blockReason: null };
}

const blocked = (blockReason: BlockReason): Access => ({ canRun: false, blockReason });

/** The free plan's messages as the balance shows them; null for an organization not on it. */
export type FreePlanMessages = { included: number; used: number; remaining: number };

export function freePlanMessagesOf(snapshot: AccessSnapshot): FreePlanMessages | null {
  if (snapshot.subscriptionStatus === "past_due") return null;
  if (!isOnFreePlan(snapshot, snapshot.bucketCount)) return null;
  const used = Math.min(snapshot.agentMessages, FREE_PLAN_MESSAGES);
  return { included: FREE_PLAN_MESSAGES, used, remaining: FREE_PLAN_MESSAGES - used };
}

const BLOCK_MESSAGES: Record<BlockReason, string> = {
  payment_overdue: "The organization's subscription payment is overdue",
  no_credits: "The organization has no credits left",
  query_limit: "The organization has reached its query limit for this month",
  free_plan_limit: `The free plan's ${FREE_PLAN_MESSAGES} included agent messages are used up`,
};

/** The 402 a metered action answers when `evaluateAccess` says no. */
export function usageLimitError(blockReason: BlockReason): AppError {
  return new AppError("USAGE_LIMIT", BLOCK_MESSAGES[blockReason], [
    { path: "blockReason", message: blockReason },
  ]);
}

/**
 * The 402 of an action asked with a key whose monthly budget is spent or held by its other
 * running actions (the organization may still have credits: the message names the key's budget).
 */
export function refuseSpentKeyBudget(keyBudget: KeyBudget | null): void {
  if (keyBudget === null || keyBudget.leftMicro > 0) return;
  const budget = microToCredits(keyBudget.budgetMicro);
  throw new AppError(
    "USAGE_LIMIT",
    `This API key's monthly credit budget of ${budget} credits is used up for this month (UTC)`,
    [{ path: "blockReason", message: "key_budget" }],
  );
}
