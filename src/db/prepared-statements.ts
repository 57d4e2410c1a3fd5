import { createHash } from "node:crypto";
import type pg from "pg";

/**
 * Statements a connection keeps prepared. The service's statements are a fixed set of texts
 * (values always travel as parameters), so this is a guard, not a cache size: texts past it run
 * unnamed, as they would without preparation.
 */
export const MAX_PREPARED_PER_CONNECTION = 500;
export const MAX_PREPARED_TEXT_LENGTH = 32_768;
const names = new Map<string, string>();

/**
 * Put in a statement whose best plan depends on its values: it then stays unnamed, so
 * PostgreSQL plans it for the values of each execution instead of settling on a generic plan.
 */
export const PLAN_PER_VALUE = "/* plan per value */";

/**
 * Makes every parameterised statement of this connection a named prepared statement, named after
 * a hash of its text. PostgreSQL then parses, analyses and plans a statement once per connection
 * instead of at every execution (about a third of the server's CPU per agent query, measured with
 * perf), and the client sends only Bind and Execute. Plans follow PostgreSQL's plan cache: custom
 * plans for the first five executions, then the generic plan where it costs no more.
 */
export function prepareStatements(client: pg.PoolClient): void {
  const prepared = new Set<string>();
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  client.query = ((config: unknown, ...rest: unknown[]) => {
    const values = rest[0];
    if (
      typeof config === "object" &&
      config !== null &&
      "text" in config &&
      typeof config.text === "string" &&
      !("name" in config && config.name) &&
      Array.isArray(values) &&
      values.length > 0 &&
      config.text.length <= MAX_PREPARED_TEXT_LENGTH &&
      !config.text.includes(PLAN_PER_VALUE)
    ) {
      const name = statementName(config.text);
      if (prepared.has(name) || prepared.size < MAX_PREPARED_PER_CONNECTION) {
        prepared.add(name);
        return query({ ...config, name }, ...rest);
      }
    }
    return query(config, ...rest);
  }) as typeof client.query;
}

function statementName(text: string): string {
  let name = names.get(text);
  if (name === undefined) {
    name = `s${createHash("sha1").update(text).digest("hex")}`;
    if (names.size < MAX_PREPARED_PER_CONNECTION) names.set(text, name);
  }
  return name;
}
