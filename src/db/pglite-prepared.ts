import {
  type PGlite,
  parse,
  protocol,
  type QueryOptions,
  type Results,
  type Transaction,
} from "@electric-sql/pglite";
import {
  MAX_PREPARED_PER_CONNECTION,
  MAX_PREPARED_TEXT_LENGTH,
  PLAN_PER_VALUE,
} from "./prepared-statements.ts";

const { serialize } = protocol;

type Statement = { name: string; parameterTypes: number[] };

type Query = <Row>(
  text: string,
  params?: unknown[],
  options?: QueryOptions,
) => Promise<Results<Row>>;

/**
 * `query` for the embedded database that runs each parameterised statement as a named prepared
 * statement of its single session, as `prepareStatements` does on every PostgreSQL connection:
 * the statement is parsed, analysed and planned once instead of at every execution, and each
 * execution is one call into the engine (Bind, Describe, Execute and Sync together) instead of
 * PGlite's five. For the statement that records an agent's answer and its charge, 2.2 ms became
 * 1.2 ms (bench/RESULTS.md). Plans follow PostgreSQL's plan cache, as on a server. Statements
 * without parameters, marked PLAN_PER_VALUE, too long, or past the cap run as PGlite runs them.
 *
 * Like `PGlite.query` it waits for a transaction in progress to end; `inTransaction(tx)` is the
 * same for the statements of a transaction (prepared statements outlive a rollback).
 */
export function preparedQuery(client: PGlite) {
  const statements = new Map<string, Statement>();

  async function prepare(text: string): Promise<Statement> {
    const name = `p${statements.size}`;
    const { messages } = await client.execProtocol(
      Buffer.concat([
        serialize.parse({ name, text }),
        serialize.describe({ type: "S", name }),
        serialize.sync(),
      ]),
      { syncToFs: false },
    );
    const statement = { name, parameterTypes: parse.parseDescribeStatementResults(messages) };
    statements.set(text, statement);
    return statement;
  }

  const preparable = (text: string, params: unknown[]) =>
    params.length > 0 &&
    text.length <= MAX_PREPARED_TEXT_LENGTH &&
    !text.includes(PLAN_PER_VALUE) &&
    (statements.size < MAX_PREPARED_PER_CONNECTION || statements.has(text));

  /**
   * Runs the statement; the caller holds PGlite's query lock. Outside a transaction, as PGlite
   * does, the data directory is synced after it.
   */
  async function execute<Row>(
    text: string,
    params: unknown[],
    options: QueryOptions | undefined,
    syncToFs: boolean,
  ): Promise<Results<Row>> {
    const statement = statements.get(text) ?? (await prepare(text));
    const values = params.map((value, index) => {
      if (value === null || value === undefined) return null;
      const type = statement.parameterTypes[index]!;
      const serializer = options?.serializers?.[type] ?? client.serializers[type];
      return serializer ? serializer(value) : String(value);
    });
    const { messages } = await client.execProtocol(
      Buffer.concat([
        serialize.bind({ statement: statement.name, values }),
        serialize.describe({ type: "P" }),
        serialize.execute({}),
        serialize.sync(),
      ]),
      { syncToFs },
    );
    return parse.parseResults(messages, client.parsers, options)[0] as Results<Row>;
  }

  const query: Query = (text, params = [], options) =>
    preparable(text, params)
      ? client._runExclusiveTransaction(() =>
          client._runExclusiveQuery(() => execute(text, params, options, true)),
        )
      : client.query(text, params, options);

  const inTransaction =
    (tx: Transaction): Query =>
    (text, params = [], options) => {
      if (!preparable(text, params) || tx.closed) return tx.query(text, params, options);
      return client._runExclusiveQuery(() => execute(text, params, options, false));
    };

  return Object.assign(query, { inTransaction });
}
