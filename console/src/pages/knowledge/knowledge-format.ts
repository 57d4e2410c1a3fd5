const oneDecimal = new Intl.NumberFormat(undefined, { maximumFractionDigits: 1 });

/** A size in bytes as people read it (decimal units, as file managers show them). */
export function formatBytes(bytes: number): string {
  if (bytes < 1_000) return `${bytes} B`;
  if (bytes < 1_000_000) return `${oneDecimal.format(bytes / 1_000)} kB`;
  if (bytes < 1_000_000_000) return `${oneDecimal.format(bytes / 1_000_000)} MB`;
  return `${oneDecimal.format(bytes / 1_000_000_000)} GB`;
}

const score = new Intl.NumberFormat(undefined, {
  minimumFractionDigits: 3,
  maximumFractionDigits: 3,
});

/** A passage's score (0..1) with three decimals. */
export const formatScore = (value: number) => score.format(value);
