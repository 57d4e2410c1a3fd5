import type { Db } from "../../db/client.ts";
import type { AccountRepo } from "./account-repo.ts";
import type { AccountService } from "./account-service.ts";
import type { AuditLog } from "./audit-log.ts";
import { createInstanceAdmins } from "./instance-admins.ts";
import { createInvitationService } from "./invitation-service.ts";
import type { Mailer } from "./mailer.ts";
import { createMemberRepo } from "./member-repo.ts";
import { createMemberService } from "./member-service.ts";
import type { SessionService } from "./session-service.ts";
import { createSignupService } from "./signup-service.ts";

/**
 * An organization's people: members, invitations, organizations made by people, and the
 * instance's administrators.
 */
export function createPeopleModule(deps: {
  db: Db;
  users: AccountRepo;
  accounts: AccountService;
  sessions: SessionService;
  audit: AuditLog;
  mailer: Mailer;
  settings: { publicUrl: string; openSignup: boolean };
}) {
  const members = createMemberRepo(deps.db);
  const shared = { ...deps, members };
  return {
    members: createMemberService(shared),
    invitations: createInvitationService({ ...shared, publicUrl: deps.settings.publicUrl }),
    signup: createSignupService({ ...shared, openSignup: deps.settings.openSignup }),
    instanceAdmins: createInstanceAdmins(shared),
  };
}
