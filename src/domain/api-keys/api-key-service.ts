import type { Db } from "../../db/client.ts";
import { createNotifiedCache } from "../../db/notified-cache.ts";
import { newId } from "../../lib/ids.ts";
import { constantTimeEquals, randomToken, sha256Hex } from "../../lib/secrets.ts";
import type { KeyScope } from "../accounts/permissions.ts";
import { type ApiKeyRepo, type ApiKeyRow, LAST_USED_RESOLUTION_MS } from "./api-key-repo.ts";

const KEY_PREFIX = "adk_";

export type AuthenticatedKey = {
  apiKeyId: string;
  organizationId: string;
  userId: string;
  /** Null: every permission (keys made before scopes, and keys made without them). */
  scopes: KeyScope[] | null;
  agentIds: string[] | null;
  rateLimitPerMinute: number | null;
};
export type IssuedKey = { apiKey: string; apiKeyId: string };

/** What a new key is made of; unset limits are none (every scope, every agent, no budget). */
export type NewKey = {
  organizationId: string;
  userId: string;
  name?: string | undefined;
  scopes?: KeyScope[] | null | undefined;
  agentIds?: string[] | null | undefined;
  rateLimitPerMinute?: number | null | undefined;
  monthlyBudgetMicro?: number | null | undefined;
  expiresAt?: Date | null | undefined;
};

/** The channel on which changes to API keys are announced (migration 0013). */
export const API_KEYS_CHANGED_CHANNEL = "api_keys_changed";

type VerifiedKey = AuthenticatedKey & {
  /** When use was last recorded (ms since the epoch), to record it at most once a minute. */
  lastUsedAt: number | null;
  /** When the key stops working (ms since the epoch); null never. */
  expiresAt: number | null;
};

/**
 * How long a verified key is trusted without reading it again. Revocations reach every process
 * at once by notification; this only bounds a notification lost on a connection that stayed up.
 */
const VERIFIED_KEY_TTL_MS = 60_000;
const VERIFIED_KEYS_MAX = 10_000;

export function createApiKeyService(deps: {
  apiKeys: ApiKeyRepo;
  onBackgroundError: (error: unknown) => void;
}) {
  // Keys verified by this process, by SHA-256; kept only once `keyChanges` receives notifications.
  const verified = createNotifiedCache<VerifiedKey>({
    ttlMs: VERIFIED_KEY_TTL_MS,
    maxEntries: VERIFIED_KEYS_MAX,
    idOf: (key) => key.apiKeyId,
  });

  // Most requests find a recent last_used_at and write nothing.
  function recordUse(key: VerifiedKey): void {
    const now = Date.now();
    if (key.lastUsedAt !== null && now - key.lastUsedAt < LAST_USED_RESOLUTION_MS) return;
    key.lastUsedAt = now;
    deps.apiKeys.touch(key.apiKeyId).catch(deps.onBackgroundError);
  }

  async function insertKey(input: NewKey, tx?: Db): Promise<{ apiKey: string; row: ApiKeyRow }> {
    const apiKey = `${KEY_PREFIX}${randomToken(32)}`;
    const row = await deps.apiKeys.insert(
      {
        ...input,
        id: newId(),
        name: input.name ?? "default",
        keyHash: sha256Hex(apiKey),
        keyPrefix: apiKey.slice(0, KEY_PREFIX.length + 6),
      },
      tx,
    );
    return { apiKey, row };
  }

  const identity = ({ lastUsedAt: _, expiresAt: __, ...key }: VerifiedKey): AuthenticatedKey => key;

  return {
    /** To be told of changes to keys made by any process (API_KEYS_CHANGED_CHANNEL). */
    keyChanges: verified.events,

    /** Creates a key; the plaintext is returned once and only its SHA-256 is stored. */
    async issue(
      input: { organizationId: string; userId: string; name?: string },
      tx?: Db,
    ): Promise<IssuedKey> {
      const { apiKey, row } = await insertKey(input, tx);
      return { apiKey, apiKeyId: row.id };
    },

    /** A key with limits (made by a user): the plaintext once, and the stored row. */
    create: insertKey,

    async authenticate(presented: string): Promise<AuthenticatedKey | null> {
      if (!presented.startsWith(KEY_PREFIX) || presented.length > 200) return null;
      const keyHash = sha256Hex(presented);
      let key = verified.get(keyHash);
      if (!key) {
        const ticket = verified.ticket();
        const row = await deps.apiKeys.findActiveByHash(keyHash);
        if (!row || !constantTimeEquals(row.keyHash, keyHash)) return null;
        key = {
          apiKeyId: row.id,
          organizationId: row.organizationId,
          userId: row.userId,
          scopes: (row.scopes as KeyScope[] | null) ?? null,
          agentIds: row.agentIds ?? null,
          rateLimitPerMinute: row.rateLimitPerMinute ?? null,
          lastUsedAt: row.lastUsedAt?.getTime() ?? null,
          expiresAt: row.expiresAt?.getTime() ?? null,
        };
        verified.keep(keyHash, key, ticket);
      }
      if (key.expiresAt !== null && key.expiresAt <= Date.now()) return null;
      recordUse(key);
      return identity(key);
    },

    async revoke(organizationId: string, apiKeyId: string, tx?: Db): Promise<boolean> {
      const revoked = (await deps.apiKeys.revoke(organizationId, apiKeyId, tx)) !== null;
      // The notification reaches this process too, but maybe after the caller's next request.
      if (revoked) verified.forget(apiKeyId);
      return revoked;
    },
  };
}

export type ApiKeyService = ReturnType<typeof createApiKeyService>;
