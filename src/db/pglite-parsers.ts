import { type PGlite, types } from "@electric-sql/pglite";
import type { embeddedDatabaseTurns } from "./background-work.ts";
import type { preparedQuery } from "./pglite-prepared.ts";

type Parser = (value: string, typeId?: number) => unknown;
type Parsers = Record<number, Parser>;
type QueryOptions = { parsers?: Parsers; [option: string]: unknown };
type Queryable = {
  query(text: string, params?: unknown[], options?: QueryOptions): Promise<unknown>;
};
type DriverClient = Queryable & {
  transaction<T>(run: (tx: Queryable) => Promise<T>): Promise<T>;
};

type DatabaseTurns = ReturnType<typeof embeddedDatabaseTurns>;

const asText: Parser = (value) => value;

/**
 * The types drizzle reads as text and maps itself (dates, times, intervals, numeric arrays):
 * the same overrides drizzle's PGlite driver passes with each of its queries.
 */
const TEXT_TYPES = [
  types.TIMESTAMP,
  types.TIMESTAMPTZ,
  types.INTERVAL,
  types.DATE,
  1231, // numeric[]
  1115, // timestamp[]
  1185, // timestamptz[]
  1187, // interval[]
  1182, // date[]
];

/** Give to `PGlite.create`: drizzle's overrides become the instance's own parsers. */
export const DRIVER_PARSERS: Parsers = Object.fromEntries(TEXT_TYPES.map((type) => [type, asText]));

/** PGlite's own parsers of those types, for the instance's users other than drizzle. */
export const DEFAULT_PARSERS: Parsers = Object.fromEntries(
  TEXT_TYPES.map((type) => [type, (types.parsers as Parsers)[type] ?? asText]),
);

/**
 * PGlite merges a query's `parsers` into its ~300 default ones on every call: an object copy
 * that cost 0.2 ms per statement (as much as the INSERT of a lead), and drizzle passes its
 * overrides with every query. The instance is created with them (DRIVER_PARSERS), so drizzle
 * is given this client, which leaves out of each query's options the overrides the instance
 * already has; any other override still goes through. Its statements and transactions each wait
 * for their turn (`take`: requests before background work).
 */
export function driverClient(
  client: PGlite,
  turns: { take: DatabaseTurns; prepared: ReturnType<typeof preparedQuery> },
): DriverClient {
  // drizzle keeps one options object per prepared statement: each is looked at once.
  const trimmed = new WeakMap<QueryOptions, QueryOptions>();
  const withoutKnownParsers = (options: QueryOptions | undefined) => {
    if (!options?.parsers) return options;
    let result = trimmed.get(options);
    if (!result) {
      const { parsers, ...rest } = options;
      result = Object.keys(parsers).every((type) => type in DRIVER_PARSERS) ? rest : options;
      trimmed.set(options, result);
    }
    return result;
  };
  const wrap = (target: Queryable): Queryable => ({
    query: (text, params, options) => target.query(text, params, withoutKnownParsers(options)),
  });
  const { take } = turns;
  const prepared = wrap({ query: turns.prepared } as Queryable);
  return {
    query: (text, params, options) => take(() => prepared.query(text, params, options)),
    transaction: (run) =>
      take(() =>
        client.transaction((tx) =>
          run(wrap({ query: turns.prepared.inTransaction(tx) } as Queryable)),
        ),
      ),
  };
}
