import type { Db } from "../../db/client.ts";
import type { AuditLog } from "../accounts/audit-log.ts";
import type { SessionService } from "../accounts/session-service.ts";
import type { ApiKeyService } from "../api-keys/api-key-service.ts";
import { createOrganizationDirectory } from "./organization-directory.ts";
import { createOrganizationDirectoryRepo } from "./organization-directory-repo.ts";
import { createOrganizationRepo, createUserRepo } from "./organization-repo.ts";
import { createOrganizationService } from "./organization-service.ts";

/** Organizations: made by the administrator or by people, and the instance's directory of them. */
export function createOrganizationModule(deps: {
  db: Db;
  apiKeys: ApiKeyService;
  audit: AuditLog;
  sessions: SessionService;
}) {
  const { db } = deps;
  const organizations = createOrganizationService({
    ...deps,
    organizations: createOrganizationRepo(db),
    users: createUserRepo(db),
  });
  const directory = createOrganizationDirectory({
    directory: createOrganizationDirectoryRepo(db),
    organizations,
  });
  return { organizations, directory };
}
