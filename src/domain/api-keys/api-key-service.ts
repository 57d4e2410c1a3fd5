import type { Db } from "../../db/client.ts";
import { newId } from "../../lib/ids.ts";
import { constantTimeEquals, randomToken, sha256Hex } from "../../lib/secrets.ts";
import { type ApiKeyRepo, LAST_USED_RESOLUTION_MS } from "./api-key-repo.ts";

const KEY_PREFIX = "adk_";

export type AuthenticatedKey = { apiKeyId: string; organizationId: string; userId: string };
export type IssuedKey = { apiKey: string; apiKeyId: string };

export function createApiKeyService(deps: {
  apiKeys: ApiKeyRepo;
  onBackgroundError: (error: unknown) => void;
}) {
  return {
    /** Creates a key; the plaintext is returned once and only its SHA-256 is stored. */
    async issue(
      input: { organizationId: string; userId: string; name?: string },
      tx?: Db,
    ): Promise<IssuedKey> {
      const apiKey = `${KEY_PREFIX}${randomToken(32)}`;
      const row = await deps.apiKeys.insert(
        {
          id: newId(),
          organizationId: input.organizationId,
          userId: input.userId,
          name: input.name ?? "default",
          keyHash: sha256Hex(apiKey),
          keyPrefix: apiKey.slice(0, KEY_PREFIX.length + 6),
        },
        tx,
      );
      return { apiKey, apiKeyId: row.id };
    },

    async authenticate(presented: string): Promise<AuthenticatedKey | null> {
      if (!presented.startsWith(KEY_PREFIX) || presented.length > 200) return null;
      const keyHash = sha256Hex(presented);
      const row = await deps.apiKeys.findActiveByHash(keyHash);
      if (!row || !constantTimeEquals(row.keyHash, keyHash)) return null;
      // Most requests read a recent last_used_at and write nothing.
      if (
        row.lastUsedAt === null ||
        Date.now() - row.lastUsedAt.getTime() >= LAST_USED_RESOLUTION_MS
      ) {
        deps.apiKeys.touch(row.id).catch(deps.onBackgroundError);
      }
      return { apiKeyId: row.id, organizationId: row.organizationId, userId: row.userId };
    },

    async revoke(organizationId: string, apiKeyId: string): Promise<boolean> {
      return (await deps.apiKeys.revoke(organizationId, apiKeyId)) !== null;
    },
  };
}

export type ApiKeyService = ReturnType<typeof createApiKeyService>;
