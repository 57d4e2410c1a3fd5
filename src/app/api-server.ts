import cookie from "@fastify/cookie";
import type { Redis } from "ioredis";
import type { AuditLog } from "../domain/accounts/audit-log.ts";
import type { AnnotationTagService } from "../domain/annotations/annotation-tag-service.ts";
import type { UserKeyService } from "../domain/api-keys/user-key-service.ts";
import type { OrganizationService } from "../domain/organizations/organization-service.ts";
import type { RetentionService } from "../domain/retention/retention-service.ts";
import type { App } from "../http/app-types.ts";
import { errorBody, registerApiErrors, toErrorBody } from "../http/plugins/api-errors.ts";
import {
  type AuthDeps,
  organizationIdOf,
  registerAuth,
  SECURITY_SCHEMES,
} from "../http/plugins/auth.ts";
import { registerDeclaredLimits } from "../http/plugins/declared-limits.ts";
import { registerKeyRateLimiter } from "../http/plugins/key-rate-limiter.ts";
import { registerOpenApi } from "../http/plugins/openapi.ts";
import { createFastify } from "../http/plugins/server-options.ts";
import { registerAccountRoutes } from "../http/routes/account/account-routes.ts";
import { type AdminDeps, registerAdminRoutes } from "../http/routes/admin/admin-routes.ts";
import { registerRetentionAdminRoutes } from "../http/routes/admin/retention-admin-routes.ts";
import { type AgentRouteDeps, registerAgentRoutes } from "../http/routes/agents/agent-routes.ts";
import {
  type AgentVersionRouteDeps,
  registerAgentVersionRoutes,
} from "../http/routes/agents/agent-version-routes.ts";
import { type ExportRouteDeps, registerExportRoutes } from "../http/routes/agents/export-routes.ts";
import { type QueryRouteDeps, registerQueryRoutes } from "../http/routes/agents/query-routes.ts";
import { registerAnnotationTagRoutes } from "../http/routes/annotation-tags/annotation-tag-routes.ts";
import {
  type AnnotationRouteDeps,
  registerAnnotationRoutes,
} from "../http/routes/annotations/annotation-routes.ts";
import { registerApiKeyRoutes } from "../http/routes/api-keys/api-key-routes.ts";
import { registerAuditRoutes } from "../http/routes/audit/audit-routes.ts";
import { type AuthRouteDeps, registerAuthRoutes } from "../http/routes/auth/auth-routes.ts";
import { type OidcRouteDeps, registerOidcRoutes } from "../http/routes/auth/oidc-routes.ts";
import {
  type ChannelInboundRouteDeps,
  registerChannelInboundRoutes,
} from "../http/routes/channels/channel-inbound-routes.ts";
import {
  type ChannelRouteDeps,
  registerChannelRoutes,
} from "../http/routes/channels/channel-routes.ts";
import { registerConsoleRoutes } from "../http/routes/console/console-routes.ts";
import {
  type ConsumptionEventRouteDeps,
  registerConsumptionEventRoutes,
} from "../http/routes/consumption-events/consumption-event-routes.ts";
import { registerContactRoutes } from "../http/routes/contacts/contact-routes.ts";
import {
  type ConversationRouteDeps,
  registerConversationRoutes,
} from "../http/routes/conversations/conversation-routes.ts";
import {
  type HandoffRouteDeps,
  registerHandoffRoutes,
} from "../http/routes/conversations/handoff-routes.ts";
import {
  type CreditRouteDeps,
  registerCreditRoutes,
} from "../http/routes/credits/credit-routes.ts";
import {
  type DatasourceRouteDeps,
  registerDatasourceRoutes,
} from "../http/routes/datasources/datasource-routes.ts";
import {
  type DatastoreRouteDeps,
  registerDatastoreRoutes,
} from "../http/routes/datastores/datastore-routes.ts";
import { type EvalRouteDeps, registerEvalRoutes } from "../http/routes/evaluation/eval-routes.ts";
import {
  type EventSubscriptionRouteDeps,
  registerEventSubscriptionRoutes,
} from "../http/routes/event-subscriptions/event-subscription-routes.ts";
import { type EventRouteDeps, registerEventRoutes } from "../http/routes/events/event-routes.ts";
import {
  type FollowUpRouteDeps,
  registerFollowUpRoutes,
} from "../http/routes/follow-ups/follow-up-routes.ts";
import { type HealthCheck, registerHealthRoutes } from "../http/routes/health/health-routes.ts";
import { registerReadinessRoute } from "../http/routes/health/readiness-routes.ts";
import {
  type InvitationRouteDeps,
  registerInvitationRoutes,
} from "../http/routes/invitations/invitation-routes.ts";
import { registerMcpRoutes } from "../http/routes/mcp/mcp-routes.ts";
import {
  type MemberRouteDeps,
  registerMemberRoutes,
} from "../http/routes/members/member-routes.ts";
import { registerMetricsRoute } from "../http/routes/metrics/metrics-routes.ts";
import { openAiErrorBody } from "../http/routes/openai/openai-errors.ts";
import { type OpenAiRouteDeps, registerOpenAiRoutes } from "../http/routes/openai/openai-routes.ts";
import {
  type OrganizationRouteDeps,
  registerOrganizationRoutes,
} from "../http/routes/organizations/organization-routes.ts";
import {
  type PublicChatRouteDeps,
  registerPublicChatRoutes,
} from "../http/routes/public-chat/public-chat-routes.ts";
import {
  registerTranscriptionRoutes,
  type TranscriptionRouteDeps,
} from "../http/routes/transcription/transcription-routes.ts";
import { registerUsageRoutes, type UsageRouteDeps } from "../http/routes/usage/usage-routes.ts";
import {
  registerWebhookRoutes,
  type WebhookRouteDeps,
} from "../http/routes/webhooks/webhook-routes.ts";
import { registerWidgetRoutes } from "../http/routes/widget/widget-routes.ts";
import type { Logger } from "../lib/logger.ts";
import type { Metrics } from "../ops/metrics.ts";
import type { Readiness } from "../ops/readiness.ts";

export type ApiServerDeps = {
  logger: Logger;
  trustProxy: number;
  bodyLimitBytes: number;
  isHealthy: HealthCheck;
  readiness: () => Promise<Readiness>;
  metrics: Metrics;
  apiKeys: AuthDeps["apiKeys"];
  /** Keys made by owners and admins (/api/api-keys). */
  userKeys: UserKeyService;
  /** Where every rate limit counts (the routes' and the keys'): in this process when null. */
  rateLimitRedis: Redis | null;
  /** Sign-in, sessions and what the people behind them may do. */
  accounts: AuthRouteDeps &
    OidcRouteDeps & {
      sessions: AuthDeps["sessions"];
      audit: AuditLog;
      publicOrigin: string;
    };
  /** Members, invitations and organizations made by people. */
  people: MemberRouteDeps &
    Omit<InvitationRouteDeps, "cookies"> &
    Omit<OrganizationRouteDeps, "cookies" | "organizations">;
  /**
   * The admin API, always there for instance administrators' sessions; `adminToken` (null when
   * ADMIN_TOKEN is not set) also lets the operator's token in, and turns on /metrics.
   */
  admin: AdminDeps;
  organizations: OrganizationService;
  consumption: ConsumptionEventRouteDeps["consumption"];
  billing: CreditRouteDeps["billing"];
  usage: UsageRouteDeps["usage"];
  annotations: AnnotationRouteDeps;
  annotationTags: AnnotationTagService;
  knowledge: DatastoreRouteDeps & DatasourceRouteDeps;
  transcription: TranscriptionRouteDeps;
  /** The public chat of public agents under /api/public (no API key). */
  publicChat: Omit<PublicChatRouteDeps, "annotations" | "transcription" | "liveEvents">;
  /** Agents and their versions, query, query-agent, export and conversations. */
  agents: AgentRouteDeps &
    AgentVersionRouteDeps &
    QueryRouteDeps &
    ExportRouteDeps &
    Omit<ConversationRouteDeps, "retention">;
  /** Erasure of conversations and contacts, and the retention setting and sweep (admin). */
  retention: RetentionService;
  /** Live events: GET /api/events, and the public chat's stream of a visitor's conversation. */
  events: EventRouteDeps;
  /** The OpenAI-compatible API under /v1. */
  openai: OpenAiRouteDeps;
  webhookDeliveries: WebhookRouteDeps["webhookDeliveries"];
  followUps: FollowUpRouteDeps["followUps"];
  /** Taking over conversations and operators' replies. */
  handoff: HandoffRouteDeps;
  /** Channel management and the platforms' inbound path. */
  channels: ChannelRouteDeps & ChannelInboundRouteDeps;
  eventSubscriptions: EventSubscriptionRouteDeps["eventSubscriptions"];
  /** Eval sets and runs. */
  evaluation: EvalRouteDeps;
};

/** The dashboard API as a Fastify instance; it never listens by itself. */
export async function buildApiServer(deps: ApiServerDeps): Promise<App> {
  const app = createFastify({ ...deps, errorBody: toErrorBody, organizationOf: organizationIdOf });
  registerApiErrors(app);
  await app.register(cookie);
  registerAuth(app, {
    apiKeys: deps.apiKeys,
    sessions: deps.accounts.sessions,
    adminToken: deps.admin.adminToken,
    publicOrigin: deps.accounts.publicOrigin,
  });
  registerKeyRateLimiter(app, await registerDeclaredLimits(app, deps.rateLimitRedis));
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

  registerHealthRoutes(app, deps.isHealthy);
  registerReadinessRoute(app, deps.readiness);
  registerAccountRoutes(app, deps);
  registerApiKeyRoutes(app, deps);
  registerAuthRoutes(app, deps.accounts);
  registerOidcRoutes(app, deps.accounts);
  registerAuditRoutes(app, deps.accounts);
  const people = {
    ...deps.people,
    cookies: deps.accounts.cookies,
    organizations: deps.organizations,
  };
  registerMemberRoutes(app, people);
  registerInvitationRoutes(app, people);
  registerOrganizationRoutes(app, people);
  registerConsumptionEventRoutes(app, deps);
  registerCreditRoutes(app, deps);
  registerUsageRoutes(app, deps);
  registerAnnotationRoutes(app, deps.annotations);
  registerAnnotationTagRoutes(app, deps);
  registerDatastoreRoutes(app, deps.knowledge);
  registerDatasourceRoutes(app, deps.knowledge);
  registerAgentRoutes(app, deps.agents);
  registerAgentVersionRoutes(app, deps.agents);
  registerQueryRoutes(app, deps.agents);
  registerExportRoutes(app, deps.agents);
  registerConversationRoutes(app, { ...deps.agents, retention: deps.retention });
  registerContactRoutes(app, deps);
  registerTranscriptionRoutes(app, deps.transcription);
  registerPublicChatRoutes(app, {
    ...deps.publicChat,
    annotations: deps.annotations.annotations,
    transcription: deps.transcription,
    liveEvents: deps.events.liveEvents,
  });
  registerEventRoutes(app, deps.events);
  registerWidgetRoutes(app, deps.publicChat);
  await registerConsoleRoutes(app, { publicUrl: deps.accounts.publicUrl });
  registerWebhookRoutes(app, deps);
  registerFollowUpRoutes(app, deps);
  registerHandoffRoutes(app, deps.handoff);
  registerEventSubscriptionRoutes(app, deps);
  registerEvalRoutes(app, deps.evaluation);
  registerChannelRoutes(app, deps.channels);
  registerChannelInboundRoutes(app, deps.channels);
  await registerOpenAiRoutes(app, deps.openai);
  registerMcpRoutes(app, {
    agents: deps.agents.agents,
    query: deps.agents.query,
    datastores: deps.knowledge.datastores,
  });
  registerAdminRoutes(app, deps.admin);
  registerRetentionAdminRoutes(app, deps);
  if (deps.admin.adminToken) registerMetricsRoute(app, deps.metrics.registry);
  return app;
}
