import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import type { FastifyInstance } from "fastify";
import { jsonSchemaTransform } from "fastify-type-provider-zod";
import { z } from "zod";
import { errorBody } from "./api-errors.ts";
import { accessDocumentation, SECURITY_SCHEMES } from "./auth.ts";

declare module "fastify" {
  interface FastifySchema {
    /** Not in the product specification: an endpoint this server adds (x-extension). */
    "x-extension"?: true;
  }
}

type Transform = typeof jsonSchemaTransform;

/**
 * The zod transform, plus what each route declares outside its schema: its access
 * (`config.auth`) becomes the operation's `security` and the refusal it documents.
 */
const withAccess: Transform = (input) => {
  const transformed = jsonSchemaTransform(input);
  const auth = input.route.config?.auth;
  if (!auth || !transformed.schema || transformed.schema.hide) return transformed;
  const { security, refusal } = accessDocumentation({ auth, refusal: input.route.config?.refusal });
  const schema: Record<string, unknown> = { ...transformed.schema, security };
  if (refusal) {
    const media =
      refusal.contentType === "text/plain"
        ? { schema: { type: "string", const: "Forbidden" } }
        : { schema: { $ref: "#/components/schemas/Error" } };
    schema.response = {
      ...(transformed.schema.response as object),
      [refusal.status]: {
        description: refusal.description,
        content: { [refusal.contentType]: media },
      },
    };
  }
  return { ...transformed, schema };
};

/** OpenAPI 3.1 generated from the route schemas, served as JSON and as a browsable page. */
export async function registerOpenApi(
  app: FastifyInstance,
  info: { title: string; version: string; description: string },
): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: "3.1.0",
      info,
      components: {
        securitySchemes: SECURITY_SCHEMES,
        schemas: { Error: z.toJSONSchema(errorBody) as Record<string, unknown> },
      },
    },
    transform: withAccess,
  });
  await app.register(swaggerUi, { routePrefix: "/api/docs" });
  app.get("/api/openapi.json", { config: { auth: "public" }, schema: { hide: true } }, async () =>
    app.swagger(),
  );
}
