/** A mistake in the command line: printed with the command's usage, exit code 2. */
export class UsageError extends Error {
  override name = "UsageError";
}

/** `--limit`: a page of 1 to `max` items. */
export function pageLimit(value: string | undefined, fallback: number, max: number): number {
  if (value === undefined) return fallback;
  const limit = Number(value);
  if (!/^\d+$/.test(value) || limit < 1 || limit > max) {
    throw new UsageError(`--limit must be a whole number from 1 to ${max}`);
  }
  return limit;
}

/** A required option's value, trimmed. */
export function required(value: string | undefined, option: string): string {
  const trimmed = value?.trim();
  if (!trimmed) throw new UsageError(`${option} is required`);
  return trimmed;
}
