import { existsSync } from "node:fs";
import { resolve } from "node:path";
import type { createOperatorServices } from "../app/services.ts";
import type { Env } from "../config/env-types.ts";
import { parseConfig } from "../config/index.ts";
import { createLogger } from "../lib/logger.ts";

/** DATA_DIR holds no embedded database: the operator named the wrong directory, or none yet. */
class NoDatabaseError extends Error {
  override name = "NoDatabaseError";
}

type OperatorServices = ReturnType<typeof createOperatorServices>;

/**
 * Runs a command against the configured database: PostgreSQL with DATABASE_URL, else the
 * embedded one in DATA_DIR, which must exist already. Only `serve` creates a database: a typing
 * mistake in DATA_DIR must not leave an empty one behind.
 */
export async function withOperatorServices<T>(
  env: Env,
  run: (services: OperatorServices) => Promise<T>,
): Promise<T> {
  const config = parseConfig(env);
  const { dataDir, databaseUrl } = config.database;
  // PG_VERSION is the first file initdb writes into a PostgreSQL data directory.
  if (!databaseUrl && !existsSync(resolve(dataDir, "pglite", "PG_VERSION"))) {
    throw new NoDatabaseError(
      `No database in ${resolve(dataDir)} (DATA_DIR): start the server there once ` +
        "(agentdesk serve), point DATA_DIR at its directory, or set DATABASE_URL.",
    );
  }
  // Loaded only now: the database drivers and the domain take seconds, which a refusal need not pay.
  const [{ openConfiguredDatabase }, { createOperatorServices }] = await Promise.all([
    import("../app/runtime.ts"),
    import("../app/services.ts"),
  ]);
  const logger = createLogger("warn", config.server.logFormat);
  const database = await openConfiguredDatabase(config, { poolSize: 2 });
  try {
    return await run(createOperatorServices(database.db, logger, config.accounts));
  } finally {
    await database.close();
  }
}
