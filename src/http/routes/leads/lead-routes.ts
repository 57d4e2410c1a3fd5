import { z } from "zod";
import { parseLeadInput } from "../../../domain/leads/lead-input.ts";
import type { LeadService } from "../../../domain/leads/lead-service.ts";
import type { Metrics } from "../../../ops/metrics.ts";
import type { App } from "../../app-types.ts";
import { rateLimitedError, SiteError } from "../../plugins/site-errors.ts";

const leadBodyDoc = z
  .object({
    name: z.string().max(100),
    email: z.email().max(254),
    phone: z.string().max(30).optional(),
    source: z.string().max(50).optional(),
    postSlug: z.string().max(200).optional(),
    company: z.string().max(150).optional(),
    industry: z.string().max(60).optional(),
    companySize: z.string().max(40).optional(),
    area: z.string().max(60).optional(),
    hoursPerWeek: z.string().max(40).optional(),
    aiToday: z.string().max(80).optional(),
    score: z.number().optional().describe("0 to 999; values outside are clamped"),
    levelLabel: z.string().max(60).optional(),
    recommendedAgent: z.string().max(150).optional(),
  })
  .describe("A sales lead from a site form");

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
        body: leadBodyDoc,
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
