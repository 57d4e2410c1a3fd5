import { z } from "zod";
import { leadBody, parseLeadInput } from "../../../domain/leads/lead-request.ts";
import type { LeadService } from "../../../domain/leads/lead-service.ts";
import type { Metrics } from "../../../ops/metrics.ts";
import type { App } from "../../app-types.ts";
import { rateLimitedError, SiteError } from "../../plugins/site-errors.ts";

const OTHER_METHODS = ["GET", "HEAD", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;

export function registerLeadRoutes(
  app: App,
  deps: {
    leads: LeadService;
    rateLimitPerMinute: number;
    metrics: Pick<Metrics, "leadSubmission">;
  },
): void {
  app.post(
    "/api/leads",
    {
      config: {
        auth: "public",
        // Per client IP, counted on every POST, valid or not.
        limits: [
          {
            name: "leads:ip",
            key: (request) => request.ip,
            max: deps.rateLimitPerMinute,
            per: "minute",
            counted: "on-arrival",
            announced: true,
            refusal: rateLimitedError,
          },
        ],
      },
      schema: {
        operationId: "createLead",
        tags: ["leads"],
        summary: "Store a sales lead from a site form",
        // Documentation only: the body is validated in the handler, so every error can carry
        // the site's own {error, code, hint} envelope and a message per rule.
        body: leadBody,
        response: { 201: z.object({ success: z.boolean(), id: z.string() }) },
        errors: {
          400:
            "validation_error: name or email missing, empty or invalid; " +
            "invalid_json: the body is not a JSON object",
          429: "rate_limited: more requests from this address than the limit per minute",
          500: "internal_error: the lead could not be saved",
        },
      },
      validatorCompiler: () => (data) => ({ value: data }),
      // The handler builds `{success, id}` itself: checking it against the schema again on
      // every form post would only cost time (the schema still documents the answer).
      serializerCompiler: () => (data) => JSON.stringify(data),
      // Every answer of this route counts, the rate limiter's and the body parser's included.
      onResponse: (_request, reply, done) => {
        deps.metrics.leadSubmission(reply.statusCode);
        done();
      },
    },
    async (request, reply) => {
      const parsed = parseLeadInput(request.body);
      if (!parsed.ok) throw new SiteError(400, "validation_error", parsed.message, parsed.hint);
      const { id } = await deps.leads.create(parsed.lead, {
        ip: request.ip,
        userAgent: request.headers["user-agent"],
      });
      reply.code(201);
      return { success: true, id };
    },
  );

  app.route({
    method: [...OTHER_METHODS],
    url: "/api/leads",
    schema: { hide: true },
    exposeHeadRoute: false,
    handler: async (request, reply) => {
      reply.header("allow", "POST");
      throw new SiteError(
        405,
        "method_not_allowed",
        `Method ${request.method} is not allowed on /api/leads`,
        "Send the lead with POST.",
      );
    },
  });
}
