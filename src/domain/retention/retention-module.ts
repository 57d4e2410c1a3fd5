import { createRetentionRepo } from "./retention-repo.ts";
import { createRetentionService, type RetentionServiceDeps } from "./retention-service.ts";

/** Erasure of conversations and contacts, and the retention setting with its daily sweep. */
export function createRetentionModule(deps: Omit<RetentionServiceDeps, "retention">) {
  return {
    retention: createRetentionService({ ...deps, retention: createRetentionRepo(deps.db) }),
  };
}
