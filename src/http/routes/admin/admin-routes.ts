import { z } from "zod";
import type { CreditGrantService } from "../../../domain/billing/credit-grant-service.ts";
import type { OrganizationService } from "../../../domain/organizations/organization-service.ts";
import { isoDateTime } from "../../../lib/iso-instant.ts";
import type { App } from "../../app-types.ts";
import { auditedBy } from "../../plugins/auth.ts";
import { type LeadInboxRouteDeps, registerLeadInboxRoutes } from "./lead-inbox-routes.ts";
import {
  type OrganizationListRouteDeps,
  registerOrganizationListRoutes,
} from "./organization-list-routes.ts";
import { billingSettings } from "./organization-schemas.ts";

export type AdminDeps = {
  organizations: OrganizationService;
  credits: CreditGrantService;
} & OrganizationListRouteDeps &
  LeadInboxRouteDeps;

const organizationParams = z.object({ id: z.string().min(1).max(64) });

const issuedKey = z.object({
  apiKey: z.string().describe("The key itself, shown only here"),
  apiKeyId: z.string(),
});

const createdOrganization = issuedKey.extend({
  organization: z.object({ id: z.string(), name: z.string() }),
  user: z.object({ id: z.string(), email: z.string().nullable() }),
});

const creditBucket = z.object({
  id: z.string(),
  organizationId: z.string(),
  amount: z.number(),
  remaining: z.number(),
  expiresAt: z.string().nullable(),
  createdAt: z.string(),
});

const organizationNotFound = { 404: "No organization with this id" };

/**
 * /api/admin/*: the operator's endpoints, for instance administrators' sessions and, when it is
 * set, the ADMIN_TOKEN (the `admin` access of src/http/plugins/auth.ts).
 */
export function registerAdminRoutes(app: App, deps: AdminDeps): void {
  registerOrganizationListRoutes(app, deps);
  registerLeadInboxRoutes(app, deps);

  app.post(
    "/api/admin/organizations",
    {
      config: { auth: "admin" },
      schema: {
        operationId: "createOrganization",
        tags: ["admin"],
        summary: "Create an organization with its owner and a first API key",
        body: z.object({
          name: z.string().trim().min(1).max(200),
          ownerEmail: z.email().max(254).optional(),
          billingModel: z.enum(["credits", "legacy"]).optional(),
          plan: z.string().trim().min(1).max(50).optional(),
        }),
        response: { 201: createdOrganization },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return deps.organizations.createOrganization(request.body);
    },
  );

  app.post(
    "/api/admin/organizations/:id/api-keys",
    {
      config: { auth: "admin" },
      schema: {
        operationId: "issueApiKey",
        tags: ["admin"],
        summary: "Issue another API key (shown once)",
        params: organizationParams,
        body: z.object({ name: z.string().trim().min(1).max(100).optional() }).nullish(),
        response: { 201: issuedKey },
        errors: organizationNotFound,
      },
    },
    async (request, reply) => {
      reply.code(201);
      return deps.organizations.issueApiKey(
        request.params.id,
        request.body?.name,
        auditedBy(request),
      );
    },
  );

  app.delete(
    "/api/admin/organizations/:id/api-keys/:keyId",
    {
      config: { auth: "admin" },
      schema: {
        operationId: "revokeApiKey",
        tags: ["admin"],
        summary: "Revoke an API key",
        params: organizationParams.extend({ keyId: z.string().min(1).max(64) }),
        response: { 204: z.null().describe("Revoked") },
        errors: { 404: "No API key with this id in the organization" },
      },
    },
    async (request, reply) => {
      await deps.organizations.revokeApiKey(
        request.params.id,
        request.params.keyId,
        auditedBy(request),
      );
      reply.code(204);
    },
  );

  app.post(
    "/api/admin/organizations/:id/credits",
    {
      config: { auth: "admin" },
      schema: {
        operationId: "grantCredits",
        tags: ["admin"],
        summary: "Grant a bucket of credits",
        params: organizationParams,
        body: z.object({
          amount: z.number().positive().max(1_000_000_000),
          expiresAt: isoDateTime.optional(),
        }),
        response: { 201: z.object({ creditBucket }) },
        errors: organizationNotFound,
      },
    },
    async (request, reply) => {
      reply.code(201);
      return { creditBucket: await deps.credits.grant(request.params.id, request.body) };
    },
  );

  app.patch(
    "/api/admin/organizations/:id/billing",
    {
      config: { auth: "admin" },
      schema: {
        operationId: "updateBilling",
        tags: ["admin"],
        summary: "Change billing model, plan, subscription status or query limit",
        params: organizationParams,
        body: z.object({
          billingModel: z.enum(["credits", "legacy"]).optional(),
          plan: z.string().trim().min(1).max(50).optional(),
          subscriptionStatus: z.enum(["active", "past_due", "none"]).optional(),
          queryLimit: z.number().int().min(0).max(1_000_000_000).nullable().optional(),
        }),
        response: { 200: z.object({ organization: billingSettings }) },
        errors: organizationNotFound,
      },
    },
    async (request) => ({
      organization: await deps.organizations.updateBilling(
        request.params.id,
        request.body,
        auditedBy(request),
      ),
    }),
  );
}
