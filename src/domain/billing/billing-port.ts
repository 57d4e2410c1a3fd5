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
};

export type ChargeResult = {
  eventId: string;
  /** What was debited: less than requested when only a fraction of credit remained. */
  creditsCharged: number;
  creditsRequested: number;
};

/** Throws AppError("USAGE_LIMIT") when the organization cannot run a metered action now. */
export type AllowanceCheck = () => Promise<void>;

/** The billing interface metered code depends on; the billing module implements it. */
export interface Billing {
  /** Throws AppError("USAGE_LIMIT") when the organization cannot run a metered action now. */
  assertCanRun(organizationId: string): Promise<void>;
  /**
   * assertCanRun as a part of a statement the caller runs with its own reads: its result
   * finishes the check (plans limited by message counts count them then).
   */
  allowancePart(organizationId: string): StatementPart<AllowanceCheck>;
  /** Records the consumption event and debits credits in one transaction. */
  charge(request: ChargeRequest): Promise<ChargeResult>;
  /** The same charge as a part of a statement the caller runs with its own writes. */
  chargePart(request: ChargeRequest): StatementPart<ChargeResult>;
}
