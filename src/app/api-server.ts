import cookie from "@fastify/cookie";
import type { Redis } from "ioredis";
import type { Config } from "../config/index.ts";
import type { App } from "../http/app-types.ts";
import { errorBody, registerApiErrors, toErrorBody } from "../http/plugins/api-errors.ts";
import { organizationIdOf, registerAuth, SECURITY_SCHEMES } from "../http/plugins/auth.ts";
import { registerDeclaredLimits } from "../http/plugins/declared-limits.ts";
import { registerKeyRateLimiter } from "../http/plugins/key-rate-limiter.ts";
import { registerOpenApi } from "../http/plugins/openapi.ts";
import { createFastify } from "../http/plugins/server-options.ts";
import { registerAccountRoutes } from "../http/routes/account/account-routes.ts";
import { registerAdminRoutes } from "../http/routes/admin/admin-routes.ts";
import { registerRetentionAdminRoutes } from "../http/routes/admin/retention-admin-routes.ts";
import { registerAgentRoutes } from "../http/routes/agents/agent-routes.ts";
import { registerAgentVersionRoutes } from "../http/routes/agents/agent-version-routes.ts";
import { registerExportRoutes } from "../http/routes/agents/export-routes.ts";
import { registerQueryRoutes } from "../http/routes/agents/query-routes.ts";
import { registerAnnotationTagRoutes } from "../http/routes/annotation-tags/annotation-tag-routes.ts";
import { registerAnnotationRoutes } from "../http/routes/annotations/annotation-routes.ts";
import { registerApiKeyRoutes } from "../http/routes/api-keys/api-key-routes.ts";
import { registerAuditRoutes } from "../http/routes/audit/audit-routes.ts";
import { registerAuthRoutes } from "../http/routes/auth/auth-routes.ts";
import { registerOidcRoutes } from "../http/routes/auth/oidc-routes.ts";
import { registerChannelInboundRoutes } from "../http/routes/channels/channel-inbound-routes.ts";
import { registerChannelRoutes } from "../http/routes/channels/channel-routes.ts";
import { registerConsoleRoutes } from "../http/routes/console/console-routes.ts";
import { registerConsumptionEventRoutes } from "../http/routes/consumption-events/consumption-event-routes.ts";
import { registerContactRoutes } from "../http/routes/contacts/contact-routes.ts";
import { registerConversationRoutes } from "../http/routes/conversations/conversation-routes.ts";
import { registerHandoffRoutes } from "../http/routes/conversations/handoff-routes.ts";
import { registerCreditRoutes } from "../http/routes/credits/credit-routes.ts";
import { registerDatasourceRoutes } from "../http/routes/datasources/datasource-routes.ts";
import { registerDatastoreRoutes } from "../http/routes/datastores/datastore-routes.ts";
import { registerEvalRoutes } from "../http/routes/evaluation/eval-routes.ts";
import { registerEventSubscriptionRoutes } from "../http/routes/event-subscriptions/event-subscription-routes.ts";
import { registerEventRoutes } from "../http/routes/events/event-routes.ts";
import { registerFollowUpRoutes } from "../http/routes/follow-ups/follow-up-routes.ts";
import { type HealthCheck, registerHealthRoutes } from "../http/routes/health/health-routes.ts";
import { registerReadinessRoute } from "../http/routes/health/readiness-routes.ts";
import { registerInvitationRoutes } from "../http/routes/invitations/invitation-routes.ts";
import { registerMcpRoutes } from "../http/routes/mcp/mcp-routes.ts";
import { registerMemberRoutes } from "../http/routes/members/member-routes.ts";
import { registerMetricsRoute } from "../http/routes/metrics/metrics-routes.ts";
import { openAiErrorBody } from "../http/routes/openai/openai-errors.ts";
import { registerOpenAiRoutes } from "../http/routes/openai/openai-routes.ts";
import { registerOrganizationRoutes } from "../http/routes/organizations/organization-routes.ts";
import { registerPublicChatRoutes } from "../http/routes/public-chat/public-chat-routes.ts";
import { registerTranscriptionRoutes } from "../http/routes/transcription/transcription-routes.ts";
import { registerUsageRoutes } from "../http/routes/usage/usage-routes.ts";
import { registerWebhookRoutes } from "../http/routes/webhooks/webhook-routes.ts";
import { registerWidgetRoutes } from "../http/routes/widget/widget-routes.ts";
import type { Logger } from "../lib/logger.ts";
import type { Metrics } from "../ops/metrics.ts";
import type { Readiness } from "../ops/readiness.ts";
import type { Services } from "./services.ts";

/** What the API listener takes from the process that runs it, besides services and settings. */
export type ApiHost = {
  logger: Logger;
  isHealthy: HealthCheck;
  readiness: () => Promise<Readiness>;
  metrics: Metrics;
  /** Where every rate limit counts (the routes' and the keys'): in this process when null. */
  redis: Redis | null;
};

/** The largest JSON body the dashboard API reads (uploads have their own cap). */
const API_BODY_LIMIT_BYTES = 1024 * 1024;

/**
 * The dashboard API as a Fastify instance; it never listens by itself. Each route takes the
 * services it names from `services` and its settings from `config`: a new dependency of a route
 * is one edit in its module (to make it) and one in the route (to use it).
 */
export async function buildApiServer(
  services: Services,
  config: Config,
  host: ApiHost,
): Promise<App> {
  const app = createFastify({
    ...host,
    trustProxy: config.server.trustProxy,
    bodyLimitBytes: API_BODY_LIMIT_BYTES,
    errorBody: toErrorBody,
    organizationOf: organizationIdOf,
  });
  registerApiErrors(app);
  await app.register(cookie);
  const adminToken = config.server.adminToken ?? null;
  registerAuth(app, services, { adminToken, publicOrigin: config.accounts.publicOrigin });
  registerKeyRateLimiter(app, await registerDeclaredLimits(app, host.redis));
  await registerOpenApi(app, {
    info: {
      title: "agentdesk dashboard API",
      version: "1.0.0",
      description: "Agents, conversations, knowledge, annotations, usage and transcription.",
    },
    errors: { body: errorBody, refusesContentTypes: true },
    components: { OpenAIError: openAiErrorBody },
    securitySchemes: SECURITY_SCHEMES,
  });

  registerHealthRoutes(app, host.isHealthy);
  registerReadinessRoute(app, host.readiness);
  registerAccountRoutes(app, services);
  registerApiKeyRoutes(app, services);
  registerAuthRoutes(app, services, config.accounts);
  registerOidcRoutes(app, services, config.accounts);
  registerAuditRoutes(app, services);
  registerMemberRoutes(app, services);
  registerInvitationRoutes(app, services, config.accounts);
  registerOrganizationRoutes(app, services, config.accounts);
  registerConsumptionEventRoutes(app, services);
  registerCreditRoutes(app, services);
  registerUsageRoutes(app, services);
  registerAnnotationRoutes(app, services, config.annotations);
  registerAnnotationTagRoutes(app, services);
  registerDatastoreRoutes(app, services);
  registerDatasourceRoutes(app, services, config.knowledge);
  registerAgentRoutes(app, services);
  registerAgentVersionRoutes(app, services);
  registerQueryRoutes(app, services, config.agents);
  registerExportRoutes(app, services);
  registerConversationRoutes(app, services);
  registerContactRoutes(app, services);
  registerTranscriptionRoutes(app, services, config.transcription);
  registerPublicChatRoutes(app, services, config);
  registerEventRoutes(app, services, config.agents);
  registerWidgetRoutes(app, services);
  await registerConsoleRoutes(app, config.accounts);
  registerWebhookRoutes(app, services);
  registerFollowUpRoutes(app, services);
  registerHandoffRoutes(app, services);
  registerEventSubscriptionRoutes(app, services);
  registerEvalRoutes(app, services);
  registerChannelRoutes(app, services);
  registerChannelInboundRoutes(app, services);
  await registerOpenAiRoutes(app, services, config.agents);
  registerMcpRoutes(app, services);
  registerAdminRoutes(app, services);
  registerRetentionAdminRoutes(app, services);
  if (adminToken) registerMetricsRoute(app, host.metrics.registry);
  return app;
}
