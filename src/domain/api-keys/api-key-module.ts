import type { Db } from "../../db/client.ts";
import type { Logger } from "../../lib/logger.ts";
import type { AuditLog } from "../accounts/audit-log.ts";
import { createApiKeyRepo } from "./api-key-repo.ts";
import { createApiKeyService } from "./api-key-service.ts";
import { createUserKeyService } from "./user-key-service.ts";

/** API keys: checking a request's key, and the keys people make for their organization. */
export function createApiKeyModule(deps: {
  db: Db;
  logger: Pick<Logger, "warn">;
  audit: AuditLog;
}) {
  const { db, logger, audit } = deps;
  const keyRows = createApiKeyRepo(db);
  const apiKeys = createApiKeyService({
    apiKeys: keyRows,
    onBackgroundError: (error) => logger.warn({ err: error }, "recording API key use failed"),
  });
  return { apiKeys, userKeys: createUserKeyService({ db, apiKeys, keyRows, audit }) };
}
