import Fastify, { type FastifyReply, type FastifyRequest } from "fastify";
import {
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from "fastify-type-provider-zod";
import type { Logger } from "../../lib/logger.ts";
import type { App } from "../app-types.ts";
import { AccessLog, type OrganizationOf } from "./access-log.ts";
import { UNSTORABLE_TEXT_MESSAGE, UnstorableInputError } from "./json-body.ts";
import { echoRequestId, generateRequestId } from "./request-id.ts";

export type ServerBasics = {
  logger: Logger;
  /** The listener's envelope for errors raised before routing (bad URLs, NUL characters). */
  errorBody: (error: unknown, request: FastifyRequest) => [number, unknown];
  /** Proxy hops whose X-Forwarded-For is believed; 0 trusts none. */
  trustProxy: number;
  bodyLimitBytes: number;
  /** The caller's organization for the access log; absent where callers are anonymous. */
  organizationOf?: OrganizationOf;
};

/** A Fastify instance with what both listeners share: logging, request ids, zod schemas. */
export function createFastify({
  logger,
  trustProxy,
  bodyLimitBytes,
  errorBody,
  organizationOf,
}: ServerBasics): App {
  const app = Fastify({
    loggerInstance: logger,
    // One access line per request instead of Fastify's two (incoming, completed).
    logController: new AccessLog(logger, organizationOf),
    genReqId: generateRequestId,
    trustProxy: trustProxy > 0 ? (_address: string, hop: number) => hop < trustProxy : false,
    bodyLimit: bodyLimitBytes,
    return503OnClosing: true,
    routerOptions: { maxParamLength: 200 },
    // Malformed URLs are answered in the listener's own envelope, not Fastify's.
    frameworkErrors: (error, request, reply) => {
      const [status, body] = errorBody(error, request as unknown as FastifyRequest);
      (reply as unknown as FastifyReply).code(status).send(body);
    },
  }).withTypeProvider<ZodTypeProvider>() as unknown as App;
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  echoRequestId(app);
  // A NUL can only arrive percent-encoded; PostgreSQL text cannot hold it, so refuse it up front.
  app.addHook("onRequest", async (request, reply) => {
    if (/%00/i.test(request.url)) {
      const [status, body] = errorBody(new UnstorableInputError(UNSTORABLE_TEXT_MESSAGE), request);
      return reply.code(status).send(body);
    }
  });
  return app;
}
