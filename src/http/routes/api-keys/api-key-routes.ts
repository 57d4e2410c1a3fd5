import { z } from "zod";
import { KEY_SCOPES } from "../../../domain/accounts/permissions.ts";
import type { UserKeyService } from "../../../domain/api-keys/user-key-service.ts";
import { isoDateTime } from "../../../lib/iso-instant.ts";
import type { App } from "../../app-types.ts";
import { callerOf, originOf } from "../../plugins/auth.ts";

const keyBody = z.object({
  name: z.string().trim().min(1).max(100),
  scopes: z
    .array(z.enum(KEY_SCOPES))
    .min(1)
    .max(KEY_SCOPES.length * 2)
    .optional()
    .describe("What the key may do; absent: everything (as the keys issued with organizations)"),
  agentIds: z
    .array(z.string().min(1).max(200))
    .min(1)
    .max(1000)
    .optional()
    .describe("The only agents the key may use; absent: every agent of the organization"),
  rateLimitPerMinute: z.number().int().min(1).max(100_000).optional(),
  monthlyCreditBudget: z
    .number()
    .min(0)
    .max(1_000_000_000)
    .optional()
    .describe("Credits the key may spend per calendar month (UTC); absent: no budget"),
  expiresAt: isoDateTime.optional().describe("When the key stops working; in the future"),
});

const keyFields = {
  id: z.string(),
  name: z.string(),
  prefix: z.string().describe("The key's first characters, to recognise it"),
  scopes: z.array(z.enum(KEY_SCOPES)).nullable().describe("null: every scope"),
  agentIds: z.array(z.string()).nullable().describe("null: every agent"),
  rateLimitPerMinute: z.number().int().nullable(),
  monthlyCreditBudget: z.number().nullable(),
  expiresAt: z.string().nullable(),
  createdAt: z.string(),
};

const createdKey = z.object({
  ...keyFields,
  key: z.string().describe("The key itself, shown only here"),
});
const listedKey = z.object({ ...keyFields, lastUsedAt: z.string().nullable() });

/** POST/GET /api/api-keys and DELETE /api/api-keys/{id}: keys made by owners and admins. */
export function registerApiKeyRoutes(app: App, deps: { userKeys: UserKeyService }): void {
  app.post(
    "/api/api-keys",
    {
      config: { auth: "key", permission: "keys:write" },
      schema: {
        operationId: "createKey",
        tags: ["accounts"],
        "x-extension": true,
        summary: "Make an API key, with scopes, agents and limits (the key is shown once)",
        body: keyBody,
        response: { 201: createdKey },
        errors: {
          400: "Invalid body, an agent that is not the organization's, or a past expiresAt",
          403: "The role or the key may not manage keys",
        },
      },
    },
    async (request, reply) => {
      const key = await deps.userKeys.create(callerOf(request), request.body, originOf(request));
      reply.code(201);
      return key;
    },
  );

  app.get(
    "/api/api-keys",
    {
      config: { auth: "key", permission: "keys:write" },
      schema: {
        operationId: "listKeys",
        tags: ["accounts"],
        "x-extension": true,
        summary: "The organization's keys that are not revoked (never the key itself)",
        response: { 200: z.array(listedKey) },
        errors: { 403: "The role or the key may not manage keys" },
      },
    },
    async (request) => deps.userKeys.list(callerOf(request)),
  );

  app.delete(
    "/api/api-keys/:id",
    {
      config: { auth: "key", permission: "keys:write" },
      schema: {
        operationId: "revokeKey",
        tags: ["accounts"],
        "x-extension": true,
        summary: "Revoke a key: every process refuses it at once",
        params: z.object({ id: z.string().min(1).max(64) }),
        response: { 204: z.null().describe("Revoked") },
        errors: {
          403: "The role or the key may not manage keys",
          404: "No key with this id in the organization (or it was already revoked)",
        },
      },
    },
    async (request, reply) => {
      await deps.userKeys.revoke(callerOf(request), request.params.id, originOf(request));
      reply.code(204);
    },
  );
}
