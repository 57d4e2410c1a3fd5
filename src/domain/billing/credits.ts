/** Credits are stored as integer micro-credits so sums never drift. */
export const MICRO_PER_CREDIT = 1_000_000;

export function creditsToMicro(credits: number): number {
  return Math.round(credits * MICRO_PER_CREDIT);
}

/** Output form: a number rounded to 6 decimals. */
export function microToCredits(micro: number): number {
  return Math.round(micro) / MICRO_PER_CREDIT;
}
