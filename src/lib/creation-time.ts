let last = 0;

/**
 * The creation time of a new agent or datastore, listed in creation order: now, or one
 * millisecond after the last time this process handed out. PGlite's clock ticks in whole
 * milliseconds, so two records made by quick successive requests would otherwise share
 * `created_at` and fall back to the order of their random ids. Datasources keep the statement's
 * `now()`: their first scheduled sync is set from it in the same statement.
 */
export function creationTime(): Date {
  last = Math.max(Date.now(), last + 1);
  return new Date(last);
}
