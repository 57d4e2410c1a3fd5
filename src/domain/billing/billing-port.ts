import type { StatementPart } from "../../db/statement-parts.ts";

/** What metered features tell billing: one consumption, priced by billing's own tables. */
export type ChargeRequest = {
  organizationId: string;
  agentId?: string | null;
  /** e.g. "chat", "follow_up", "transcription", "embeddings". */
  feature: string;
  provider: string;
  modelName: string;
  inputTokens: number;
  outputTokens: number;
  /** For features not counted in tokens (e.g. seconds of audio). */
  units?: number | null;
  /** Multiplier from raw to final credits (default 1). */
  coefficient?: number;
  conversationId?: string | null;
  messageId?: string | null;
  metadata?: Record<string, unknown>;
  /** The reservation this charge settles: deleted by the charge's own statement. */
  reservationId?: string | null;
  /** The key the action was asked with: a key with a monthly budget is charged within it. */
  apiKeyId?: string | null;
};

/**
 * What an action about to run may cost at most: the usage it would be priced by, in upper
 * bounds (most input and output tokens or units it can use).
 */
export type ReservationRequest = Pick<
  ChargeRequest,
  | "organizationId"
  | "feature"
  | "provider"
  | "modelName"
  | "inputTokens"
  | "outputTokens"
  | "units"
  | "coefficient"
  | "apiKeyId"
> & {
  /** The longest the action can take: a reservation its process never settles stops counting then. */
  holdMs: number;
};

/** Added to a reservation's hold beyond its action's own time bounds: the statements around it. */
export const RESERVATION_MARGIN_MS = 60_000;

/** Credits held for an action that runs now; settled by its charge or released. */
export type Reservation = { id: string; organizationId: string };

export type ChargeResult = {
  eventId: string;
  /** What was debited: less than requested when only a fraction of credit remained. */
  creditsCharged: number;
  creditsRequested: number;
};

/** Finishes a reservation: resolves to it, or throws AppError("USAGE_LIMIT") having released it. */
export type ReservationCheck = () => Promise<Reservation>;

/** The billing interface metered code depends on; the billing module implements it. */
export interface Billing {
  /** Throws AppError("USAGE_LIMIT") when the organization cannot run a metered action now. */
  assertCanRun(organizationId: string): Promise<void>;
  /**
   * Holds the most an action can cost before it runs, or throws AppError("USAGE_LIMIT") when the
   * organization cannot run it with what its running actions already hold. Every metered action
   * that calls a model reserves, then charges with `reservationId` (or releases on failure).
   */
  reserve(request: ReservationRequest): Promise<Reservation>;
  /**
   * reserve as a part of a statement the caller runs with its own reads: its result finishes the
   * check (plans limited by message counts count them then).
   */
  reservePart(request: ReservationRequest): StatementPart<ReservationCheck>;
  /** Gives back what a reservation holds, for an action that failed before it could be charged. */
  release(reservation: Reservation): Promise<void>;
  /** Records the consumption event and debits credits in one transaction. */
  charge(request: ChargeRequest): Promise<ChargeResult>;
  /** The same charge as a part of a statement the caller runs with its own writes. */
  chargePart(request: ChargeRequest): StatementPart<ChargeResult>;
}

/** Runs a reserved action; when it fails, the reservation is released before the error goes on. */
export async function releasingOnFailure<Result>(
  billing: Pick<Billing, "release">,
  reservation: Reservation,
  action: () => Promise<Result>,
): Promise<Result> {
  try {
    return await action();
  } catch (error) {
    await billing.release(reservation);
    throw error;
  }
}
