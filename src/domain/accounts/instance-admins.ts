import type { Db } from "../../db/client.ts";
import { notFound } from "../../lib/errors.ts";
import type { AccountRepo } from "./account-repo.ts";
import { normalizeEmail } from "./account-service.ts";
import type { AuditLog } from "./audit-log.ts";

/** The people who may use the instance's administration (leads, organizations) with a session. */
export function createInstanceAdmins(deps: { db: Db; users: AccountRepo; audit: AuditLog }) {
  const { audit } = deps;
  return {
    /** agentdesk admin grant: the user may use the administration with a session. */
    async grant(emailInput: string) {
      const email = normalizeEmail(emailInput);
      return deps.db.transaction(async (tx) => {
        const user = await deps.users.userByEmail(email, tx);
        if (!user) throw notFound(`No user has the e-mail ${email}`);
        await deps.users.updateUser(user.id, { instanceAdmin: true }, tx);
        await audit.record(
          {
            organizationId: null,
            action: "instance_admin.granted",
            actor: { type: "admin", id: null },
            target: { type: "user", id: user.id },
            details: { email, already: user.instanceAdmin },
          },
          tx,
        );
        return { id: user.id, email, alreadyAdmin: user.instanceAdmin };
      });
    },
  };
}
