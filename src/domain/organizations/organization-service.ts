import { sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { notFound } from "../../lib/errors.ts";
import { newId } from "../../lib/ids.ts";
import type { AuditedBy, AuditLog } from "../accounts/audit-log.ts";
import type { SessionService } from "../accounts/session-service.ts";
import type { ApiKeyService, IssuedKey } from "../api-keys/api-key-service.ts";
import type {
  BillingSettings,
  OrganizationRepo,
  OrganizationRow,
  OrganizationSettings,
  UserRepo,
} from "./organization-repo.ts";

export type NewOrganization = {
  name: string;
  ownerEmail?: string | undefined;
  billingModel?: "credits" | "legacy" | undefined;
  plan?: string | undefined;
};

export type CreatedOrganization = {
  organization: { id: string; name: string };
  user: { id: string; email: string | null };
} & IssuedKey;

export function createOrganizationService(deps: {
  db: Db;
  organizations: OrganizationRepo;
  users: UserRepo;
  apiKeys: ApiKeyService;
  audit: AuditLog;
  /** Sessions carry their organizations' names: a rename is forgotten here at once. */
  sessions: Pick<SessionService, "forgetUser">;
}) {
  async function requireOrganization(organizationId: string): Promise<OrganizationRow> {
    const row = await deps.organizations.findById(organizationId);
    if (!row) throw notFound(`Organization ${organizationId} not found`);
    return row;
  }

  async function create(input: NewOrganization, tx: Db): Promise<CreatedOrganization> {
    const organization = await deps.organizations.insert(
      {
        id: newId(),
        name: input.name,
        billingModel: input.billingModel ?? "credits",
        plan: input.plan ?? "free",
      },
      tx,
    );
    const user = await deps.users.findOrCreateByEmail(
      input.ownerEmail?.toLowerCase() ?? null,
      newId(),
      tx,
    );
    await deps.organizations.addMember(organization.id, user.id, "owner", tx);
    const key = await deps.apiKeys.issue({ organizationId: organization.id, userId: user.id }, tx);
    return {
      organization: { id: organization.id, name: organization.name },
      user: { id: user.id, email: user.email },
      ...key,
    };
  }

  return {
    /** Creates an organization with its owner and a first API key (shown once). */
    createOrganization(input: NewOrganization): Promise<CreatedOrganization> {
      return deps.db.transaction((tx) => create(input, tx));
    },

    /** A full-access key of the organization's owner (the admin API and CLI). */
    async issueApiKey(organizationId: string, name: string | undefined, by: AuditedBy) {
      const ownerId = await deps.organizations.findOwnerId(organizationId);
      if (!ownerId) throw notFound(`Organization ${organizationId} not found`);
      return deps.db.transaction(async (tx) => {
        const key = await deps.apiKeys.issue(
          { organizationId, userId: ownerId, ...(name ? { name } : {}) },
          tx,
        );
        await deps.audit.record(
          {
            organizationId,
            action: "key.created",
            ...by,
            target: { type: "api_key", id: key.apiKeyId },
            details: { name: name ?? "default" },
          },
          tx,
        );
        return key;
      });
    },

    async revokeApiKey(organizationId: string, apiKeyId: string, by: AuditedBy) {
      await deps.db.transaction(async (tx) => {
        if (!(await deps.apiKeys.revoke(organizationId, apiKeyId, tx))) {
          throw notFound(`API key ${apiKeyId} not found in organization ${organizationId}`);
        }
        await deps.audit.record(
          {
            organizationId,
            action: "key.revoked",
            ...by,
            target: { type: "api_key", id: apiKeyId },
          },
          tx,
        );
      });
    },

    async updateBilling(organizationId: string, settings: BillingSettings, by: AuditedBy) {
      return deps.db.transaction(async (tx) => {
        const row = await deps.organizations.update(organizationId, settings, tx);
        if (!row) throw notFound(`Organization ${organizationId} not found`);
        await deps.audit.record(
          {
            organizationId,
            action: "organization.settings_changed",
            ...by,
            details: { ...settings },
          },
          tx,
        );
        return billingView(row);
      });
    },

    /** What its members see of an organization: its name and retention. */
    async settingsOf(organizationId: string) {
      return settingsView(await requireOrganization(organizationId));
    },

    /**
     * An owner's or admin's change of the organization's name or retention: a rename is
     * `organization.settings_changed`, a new retention `retention.changed` (as by the admin API);
     * a value given unchanged records nothing.
     */
    async updateSettings(organizationId: string, changes: OrganizationSettings, by: AuditedBy) {
      const { row, renamedFor } = await deps.db.transaction(async (tx) => {
        const before = await deps.organizations.findById(organizationId, tx, { lock: true });
        if (!before) throw notFound(`Organization ${organizationId} not found`);
        const row = (await deps.organizations.update(organizationId, changes, tx)) ?? before;
        const record = (action: string, details: Record<string, unknown>) =>
          deps.audit.record({ organizationId, action, ...by, details }, tx);
        const renamed = changes.name !== undefined && changes.name !== before.name;
        if (renamed) {
          await record("organization.settings_changed", {
            name: changes.name,
            previousName: before.name,
          });
        }
        const days = changes.conversationRetentionDays;
        if (days !== undefined && days !== before.conversationRetentionDays) {
          await record("retention.changed", {
            days,
            previousDays: before.conversationRetentionDays,
          });
        }
        const renamedFor = renamed
          ? await deps.organizations.announceToMembers(organizationId, tx)
          : [];
        return { row, renamedFor };
      });
      for (const userId of renamedFor) deps.sessions.forgetUser(userId);
      return settingsView(row);
    },

    requireOrganization,

    /**
     * On an empty database, creates the Default organization so a newcomer can call the API at
     * once. Returns it (with its key) only when this call created it.
     */
    ensureDefaultOrganization(): Promise<CreatedOrganization | null> {
      return deps.db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(hashtext('agentdesk.bootstrap'))`);
        if ((await deps.organizations.count(tx)) > 0) return null;
        return create({ name: "Default", ownerEmail: "owner@localhost" }, tx);
      });
    },
  };
}

function settingsView(row: OrganizationRow) {
  return {
    id: row.id,
    name: row.name,
    conversationRetentionDays: row.conversationRetentionDays,
    createdAt: row.createdAt.toISOString(),
  };
}

function billingView(row: OrganizationRow) {
  return {
    id: row.id,
    name: row.name,
    billingModel: row.billingModel,
    plan: row.plan,
    subscriptionStatus: row.subscriptionStatus,
    queryLimit: row.queryLimit,
    conversationRetentionDays: row.conversationRetentionDays,
  };
}

export type OrganizationService = ReturnType<typeof createOrganizationService>;
