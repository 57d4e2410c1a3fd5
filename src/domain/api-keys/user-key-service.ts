import type { Db } from "../../db/client.ts";
import { invalid, notFound } from "../../lib/errors.ts";
import type { AuditLog, AuditOrigin } from "../accounts/audit-log.ts";
import type { KeyScope } from "../accounts/permissions.ts";
import { creditsToMicro, microToCredits } from "../billing/credits.ts";
import type { Caller } from "../caller.ts";
import type { ApiKeyRepo, ApiKeyRow } from "./api-key-repo.ts";
import type { ApiKeyService } from "./api-key-service.ts";

/** What a user asks for in POST /api/api-keys; absent limits are none. */
export type KeyRequest = {
  name: string;
  scopes?: KeyScope[] | undefined;
  agentIds?: string[] | undefined;
  rateLimitPerMinute?: number | undefined;
  /** Credits (not micro-credits), like every amount of the API. */
  monthlyCreditBudget?: number | undefined;
  expiresAt?: Date | undefined;
};

/** A key as GET /api/api-keys shows it: never the key or its hash. */
function keyView(row: ApiKeyRow) {
  return {
    id: row.id,
    name: row.name,
    prefix: row.keyPrefix,
    scopes: (row.scopes as KeyScope[] | null) ?? null,
    agentIds: row.agentIds ?? null,
    rateLimitPerMinute: row.rateLimitPerMinute ?? null,
    monthlyCreditBudget:
      row.monthlyBudgetMicro === null ? null : microToCredits(row.monthlyBudgetMicro),
    expiresAt: row.expiresAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  };
}

/**
 * The keys an organization's owners and admins make, list and revoke (DESIGN.md §10), each
 * change audited in its own transaction. A new key belongs to the caller's user: the signed-in
 * user, or the user of the key that made it.
 */
export function createUserKeyService(deps: {
  db: Db;
  apiKeys: Pick<ApiKeyService, "create" | "revoke">;
  keyRows: Pick<ApiKeyRepo, "listActive" | "agentsOf">;
  audit: Pick<AuditLog, "record">;
  now?: () => Date;
}) {
  const now = deps.now ?? (() => new Date());

  async function refuseUnknownAgents(organizationId: string, agentIds: string[], tx: Db) {
    const known = await deps.keyRows.agentsOf(organizationId, agentIds, tx);
    const unknown = agentIds.find((id) => !known.has(id));
    if (unknown !== undefined) {
      throw invalid(`No agent ${unknown} in the organization`, [
        { path: "agentIds", message: `unknown agent ${unknown}` },
      ]);
    }
  }

  return {
    async create(caller: Caller, request: KeyRequest, origin: AuditOrigin) {
      if (request.expiresAt && request.expiresAt.getTime() <= now().getTime()) {
        throw invalid("expiresAt must be in the future", [
          { path: "expiresAt", message: "must be in the future" },
        ]);
      }
      return deps.db.transaction(async (tx) => {
        const agentIds = request.agentIds ? [...new Set(request.agentIds)] : null;
        if (agentIds) await refuseUnknownAgents(caller.organizationId, agentIds, tx);
        const { apiKey, row } = await deps.apiKeys.create(
          {
            organizationId: caller.organizationId,
            userId: caller.userId,
            name: request.name,
            scopes: request.scopes ? [...new Set(request.scopes)] : null,
            agentIds,
            rateLimitPerMinute: request.rateLimitPerMinute ?? null,
            monthlyBudgetMicro:
              request.monthlyCreditBudget === undefined
                ? null
                : creditsToMicro(request.monthlyCreditBudget),
            expiresAt: request.expiresAt ?? null,
          },
          tx,
        );
        await deps.audit.record(
          {
            organizationId: caller.organizationId,
            action: "key.created",
            actor: caller.actor,
            target: { type: "api_key", id: row.id },
            origin,
            details: { name: row.name, prefix: row.keyPrefix, scopes: row.scopes },
          },
          tx,
        );
        const { lastUsedAt: _, ...view } = keyView(row);
        return { ...view, key: apiKey };
      });
    },

    async list(caller: Caller) {
      return (await deps.keyRows.listActive(caller.organizationId)).map(keyView);
    },

    async revoke(caller: Caller, apiKeyId: string, origin: AuditOrigin): Promise<void> {
      await deps.db.transaction(async (tx) => {
        if (!(await deps.apiKeys.revoke(caller.organizationId, apiKeyId, tx))) {
          throw notFound(`No API key ${apiKeyId} in the organization`);
        }
        await deps.audit.record(
          {
            organizationId: caller.organizationId,
            action: "key.revoked",
            actor: caller.actor,
            target: { type: "api_key", id: apiKeyId },
            origin,
          },
          tx,
        );
      });
    },
  };
}

export type UserKeyService = ReturnType<typeof createUserKeyService>;
