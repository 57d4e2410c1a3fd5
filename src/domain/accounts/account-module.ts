import type { Config } from "../../config/index.ts";
import type { Db } from "../../db/client.ts";
import type { Logger } from "../../lib/logger.ts";
import { createAccountRepo } from "./account-repo.ts";
import { createAccountService } from "./account-service.ts";
import { createAuditLog } from "./audit-log.ts";
import { createMailer } from "./mailer.ts";
import { oidcProviderOf } from "./oidc-client.ts";
import { createOidcRepo } from "./oidc-repo.ts";
import { createOidcService } from "./oidc-service.ts";
import { createPeopleModule } from "./people-module.ts";
import { createSessionService } from "./session-service.ts";

export type AccountModuleDeps = {
  db: Db;
  logger: Logger;
  settings: Config["accounts"];
};

/**
 * People and how they sign in: accounts, sessions, single sign-on, members and invitations, the
 * audit log every module writes to, and the mailer of the account mails.
 */
export function createAccountModule({ db, logger, settings }: AccountModuleDeps) {
  const audit = createAuditLog(db);
  const users = createAccountRepo(db);
  const sessions = createSessionService({ accounts: users, maxAgeMs: settings.sessionMaxAgeMs });
  const mailer = createMailer({ smtpUrl: settings.smtpUrl, from: settings.mailFrom, logger });
  const signupSettings = { publicUrl: settings.publicUrl, openSignup: settings.signup === "open" };
  const accounts = createAccountService({
    db,
    accounts: users,
    sessions,
    audit,
    mailer,
    logger,
    settings: signupSettings,
  });
  const people = createPeopleModule({
    db,
    users,
    accounts,
    sessions,
    audit,
    mailer,
    settings: signupSettings,
  });
  const oidc = createOidcService({
    db,
    oidc: createOidcRepo(db),
    provider: oidcProviderOf(settings),
    accounts,
    users,
    audit,
  });
  return {
    accounts,
    sessions,
    audit,
    mailer,
    people,
    oidc,
    /** The users' records, for the modules that name a user (event subscriptions). */
    accountRecords: users,
  };
}
