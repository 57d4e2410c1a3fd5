import compress from "@fastify/compress";
import swagger, { type SwaggerTransformObject } from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import type { FastifyInstance } from "fastify";
import { jsonSchemaTransform } from "fastify-type-provider-zod";
import { z } from "zod";
import type { ERROR_STATUS } from "../../lib/errors.ts";
import { accessDocumentation } from "./auth.ts";

/** A status of the error table (src/lib/errors.ts). */
type ErrorStatus = (typeof ERROR_STATUS)[keyof typeof ERROR_STATUS];

declare module "fastify" {
  interface FastifySchema {
    /** Not in the product specification: an endpoint this server adds (x-extension). */
    "x-extension"?: true;
    /**
     * Error statuses the route's services answer, with when, beyond those its shape implies
     * (400 for input, 404 for a path id, 413/415 for a body, 429 for a rate limit, 500).
     * Documentation only; a description here replaces the generic one.
     */
    errors?: Partial<Record<ErrorStatus, string>>;
    /**
     * With `streaming: true` the 200 answer is a text/event-stream (documentation only); a string
     * describes a framing other than the query endpoint's.
     */
    eventStream?: true | string;
    /** The component schema of the route's error body when it is not `Error` (documentation only). */
    errorComponent?: string;
    /** The body per media type, where the handler reads several itself (documentation only). */
    bodies?: Record<string, z.ZodType>;
  }
}

/** One tag per resource, in the order the documents list them. */
const TAGS: Record<string, string> = {
  agents: "Agents, and asking them: query, query-agent, follow-up",
  conversations: "Conversations, their messages, webhook deliveries and the CSV export",
  knowledge: "Datastores and their datasources (files, web pages, web sites), and retrieval",
  annotations: "Reviews of agent messages, their tags and statuses",
  usage: "Credits, the consumption ledger and reported usage",
  accounts:
    "People: sign-in and sessions, single sign-on, members and invitations, API keys, the audit log",
  channels:
    "Messaging channels of agents (Telegram, WhatsApp, Slack) and the platforms' webhooks to us",
  transcription: "Speech to text for public agents",
  "public-chat": "A public agent's chat for a site's visitors, without an API key (the widget)",
  admin: "Operator endpoints: instance administrators' sessions, and ADMIN_TOKEN when it is set",
  leads: "Sales leads from the marketing site's forms",
  mcp: "The Model Context Protocol server at /mcp, for MCP clients (Claude Desktop, IDEs, agents)",
  health: "Liveness, readiness and the caller's identity",
  openai: "The OpenAI-compatible API: agents as models, chat completions and responses",
};

const GENERIC_ERRORS: Record<ErrorStatus, string> = {
  400: "Invalid request: a parameter or a field of the body is missing, malformed or invalid",
  401: "Not authenticated",
  402: "Usage limit: the organization cannot run this now (type USAGE_LIMIT)",
  403: "Forbidden",
  404: "Not found in the caller's organization",
  405: "Method not allowed",
  409: "Conflict with the current state",
  413: "The body is larger than this endpoint accepts",
  415: "The body's content type is not one this endpoint reads",
  429: "Too many requests from this address; retry later",
  500: "Unexpected failure; the body carries the request id to find it in the logs",
  502: "An upstream model provider answered with an error",
  503: "A service this request needs is not available",
};

const SSE_FRAMING =
  "With `streaming: true`, a text/event-stream: zero or more `event: answer` frames whose data " +
  "is a fragment of the answer (in order, the fragments make the answer), one " +
  "`event: endpoint_response` frame whose data is the JSON of the non-streaming answer, then a " +
  "frame with data `[DONE]`. A failure after the stream started is a frame with data " +
  "`[ERROR] <message>`. Lines starting with `:` are keep-alive comments; data spanning several " +
  "lines is sent as one `data:` line per line. Errors found before the stream starts are " +
  "answered with their status and the JSON error body.";

const ERROR_REF = { $ref: "#/components/schemas/Error" };

/**
 * The docs page loads its scripts, stylesheets and icons from its own origin and asks for the
 * document (and "Try it out" requests) there too. Styles may be inline: the Swagger UI bundle
 * renders Markdown tables with `style="text-align: …"` attributes; scripts may not.
 */
/** How long a browser keeps Swagger UI's files before it revalidates them (by ETag). */
const DOCS_ASSETS_MAX_AGE_SECONDS = 86_400;

const DOCS_PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

/** How a listener answers errors, as its document tells it. */
type ErrorConventions = {
  /** The listener's error body: the `Error` component every 4xx and 5xx response refers to. */
  body: z.ZodType;
  /** False where every content type is read as JSON (the site), so none is refused with 415. */
  refusesContentTypes: boolean;
};

export type OpenApiOptions = {
  info: { title: string; version: string; description: string };
  errors: ErrorConventions;
  /** Further component schemas, such as the error body a route names in `errorComponent`. */
  components?: Record<string, z.ZodType>;
  /** The listener's security schemes; none where no route reads credentials. */
  securitySchemes?: Record<
    string,
    | { type: "http"; scheme: string; description: string }
    | { type: "apiKey"; in: "cookie" | "header"; name: string; description: string }
  >;
};

type Transform = typeof jsonSchemaTransform;
type Responses = Record<string, unknown>;

const errorResponse = (
  description: string,
  media = "application/json",
  schema: object = ERROR_REF,
) => ({
  description,
  content: { [media]: { schema } },
});

/**
 * The zod transform, plus what each route declares outside its zod schemas: its access
 * (`config.auth`) becomes the operation's `security` and refusal, and every error it can answer
 * is documented with the listener's error body, derived from the route's shape and `errors`.
 */
function documentRoutes(conventions: ErrorConventions): Transform {
  return (input) => {
    if (!input.schema) return jsonSchemaTransform(input);
    const { errors: declared, eventStream, bodies, errorComponent, ...schema } = input.schema;
    const errorSchema = errorComponent
      ? { $ref: `#/components/schemas/${errorComponent}` }
      : ERROR_REF;
    const transformed = jsonSchemaTransform({ ...input, schema });
    if (transformed.schema.hide) return transformed;
    const documented: Record<string, unknown> = { ...transformed.schema };
    const success = { ...(transformed.schema.response as Responses | undefined) };

    if (bodies) {
      const content = Object.entries(bodies).map(([media, body]) => [
        media,
        { schema: jsonSchemaTransform({ ...input, schema: { body } }).schema.body },
      ]);
      documented.body = { content: Object.fromEntries(content) };
    }
    // A handler that sends a file itself (CSV) has no response schema to serialize it with.
    if (schema.produces && Object.keys(success).length === 0) {
      const content = schema.produces.map((media) => [media, { schema: { type: "string" } }]);
      success[200] = {
        description: `The ${schema.produces.join(" or ")} document`,
        content: Object.fromEntries(content),
      };
    }
    if (eventStream && success[200]) {
      const framing = eventStream === true ? SSE_FRAMING : eventStream;
      success[200] = {
        description: `The answer as JSON, or as Server-Sent Events. ${framing}`,
        content: {
          "application/json": { schema: success[200] },
          "text/event-stream": { schema: { type: "string", description: framing } },
        },
      };
    }

    const hasBody = Boolean(schema.body ?? bodies);
    const statuses = new Set<ErrorStatus>([500]);
    if (hasBody || schema.querystring || schema.params || schema.headers) statuses.add(400);
    if (schema.params) statuses.add(404);
    if (hasBody) statuses.add(413);
    if (hasBody && conventions.refusesContentTypes) statuses.add(415);
    if (input.route.config?.limits?.length) statuses.add(429);
    for (const status of Object.keys(declared ?? {})) statuses.add(Number(status) as ErrorStatus);

    const failures: Responses = {};
    for (const status of [...statuses].sort((a, b) => a - b)) {
      const description = declared?.[status] ?? GENERIC_ERRORS[status];
      failures[status] = errorResponse(description, "application/json", errorSchema);
    }

    const auth = input.route.config?.auth;
    if (auth) {
      const { security, refusal } = accessDocumentation({
        auth,
        refusal: input.route.config?.refusal,
        permission: input.route.config?.permission,
      });
      documented.security = security;
      const permission = input.route.config?.permission;
      if (permission) {
        documented["x-permission"] = permission;
        if (permission !== "identity" && !input.route.config?.permissionRefusal) {
          const forbidden = `The caller's role or key scopes do not allow ${permission}, or the key may not use this agent`;
          const also = declared?.[403];
          failures[403] = errorResponse(
            also ? `${forbidden}; or ${also}` : forbidden,
            "application/json",
            errorSchema,
          );
        }
      }
      if (auth === "admin") {
        const also = declared?.[403];
        const forbidden = "Signed in, but not an instance administrator";
        failures[403] = errorResponse(
          also ? `${forbidden}; or ${also}` : forbidden,
          "application/json",
          errorSchema,
        );
      }
      if (refusal) {
        const also = declared?.[refusal.status as ErrorStatus];
        const description = also ? `${refusal.description}; or ${also}` : refusal.description;
        failures[refusal.status] =
          refusal.contentType === "text/plain"
            ? errorResponse(description, "text/plain", { type: "string", const: "Forbidden" })
            : errorResponse(description, "application/json", errorSchema);
      }
    }
    documented.response = { ...success, ...failures };
    return { ...transformed, schema: documented };
  };
}

/** Declares the tags the operations use, with their descriptions, in the order of TAGS. */
const declareUsedTags: SwaggerTransformObject = (document) => {
  if (!("openapiObject" in document)) return document.swaggerObject;
  const { openapiObject } = document;
  const used = new Set<string>();
  for (const operations of Object.values(openapiObject.paths ?? {})) {
    for (const operation of Object.values(operations ?? {}) as Array<{ tags?: string[] }>) {
      for (const tag of operation.tags ?? []) used.add(tag);
    }
  }
  const tags = Object.entries(TAGS)
    .filter(([name]) => used.has(name))
    .map(([name, description]) => ({ name, description }));
  return { ...openapiObject, tags };
};

/** OpenAPI 3.1 generated from the route schemas, served as JSON and as a browsable page. */
export async function registerOpenApi(
  app: FastifyInstance,
  options: OpenApiOptions,
): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: "3.1.0",
      info: options.info,
      // Relative: the document is served by the server it describes, behind any prefix or host.
      servers: [{ url: "/", description: "The server that serves this document" }],
      ...(options.securitySchemes ? {} : { security: [] }),
      components: {
        ...(options.securitySchemes ? { securitySchemes: options.securitySchemes } : {}),
        schemas: Object.fromEntries(
          Object.entries({ Error: options.errors.body, ...options.components }).map(
            ([name, schema]) => [name, z.toJSONSchema(schema) as Record<string, unknown>],
          ),
        ),
      },
    },
    transform: documentRoutes(options.errors),
    transformObject: declareUsedTags,
  });
  // In a scope of its own: the page's headers apply to it and its files, not to the API. Its
  // files (1.5 MB of Swagger UI) are compressed and cached for a day, revalidated by their ETag,
  // so the page renders in a fraction of a second after the first visit.
  await app.register(async (docs) => {
    docs.addHook("onRequest", async (_request, reply) => {
      reply.header("x-content-type-options", "nosniff");
      reply.header("content-security-policy", DOCS_PAGE_CSP);
    });
    // On send: @fastify/static writes its own `max-age=0` before this runs.
    docs.addHook("onSend", async (request, reply) => {
      if (request.url.startsWith("/api/docs/static/") && reply.statusCode === 200) {
        reply.header("cache-control", `public, max-age=${DOCS_ASSETS_MAX_AGE_SECONDS}`);
      }
    });
    await docs.register(compress, { global: true, threshold: 1024 });
    await docs.register(swaggerUi, { routePrefix: "/api/docs" });
  });
  app.get("/api/openapi.json", { config: { auth: "public" }, schema: { hide: true } }, async () =>
    app.swagger(),
  );
}
