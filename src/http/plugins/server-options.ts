import Fastify, {
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from "fastify";
import {
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from "fastify-type-provider-zod";
import type { Logger } from "../../lib/logger.ts";
import type { Metrics } from "../../ops/metrics.ts";
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
  /** Receives every request's route pattern, status and duration. */
  metrics: Pick<Metrics, "httpRequest">;
};

type CompilersFactory = NonNullable<
  NonNullable<FastifyServerOptions["schemaController"]>["compilersFactory"]
>;

// Given as factories, zod's compilers spare Fastify loading ajv and fast-json-stringify, its
// defaults (0.2-0.3 s of CPU per start), only to replace them. Fastify calls each factory as it
// would ajv's and uses the compiler it returns; its types know only ajv's shape, hence the cast.
const ZOD_COMPILERS = {
  buildValidator: () => validatorCompiler,
  buildSerializer: () => serializerCompiler,
} as unknown as CompilersFactory;

/** A Fastify instance with what both listeners share: logging, request ids, zod schemas. */
export function createFastify({
  logger,
  trustProxy,
  bodyLimitBytes,
  errorBody,
  organizationOf,
  metrics,
}: ServerBasics): App {
  const app = Fastify({
    loggerInstance: logger,
    // One access line per request instead of Fastify's two (incoming, completed).
    logController: new AccessLog(logger, metrics, organizationOf),
    genReqId: generateRequestId,
    trustProxy: trustProxy > 0 ? (_address: string, hop: number) => hop < trustProxy : false,
    bodyLimit: bodyLimitBytes,
    return503OnClosing: true,
    routerOptions: { maxParamLength: 200 },
    schemaController: { compilersFactory: ZOD_COMPILERS },
    // Malformed URLs are answered in the listener's own envelope, not Fastify's.
    frameworkErrors: (error, request, reply) => {
      const [status, body] = errorBody(error, request as unknown as FastifyRequest);
      (reply as unknown as FastifyReply).code(status).send(body);
    },
  }).withTypeProvider<ZodTypeProvider>() as unknown as App;
  echoRequestId(app);
  // A NUL can only arrive percent-encoded; PostgreSQL text cannot hold it, so refuse it up front.
  app.addHook("onRequest", (request, reply, done) => {
    if (!/%00/i.test(request.url)) return done();
    const [status, body] = errorBody(new UnstorableInputError(UNSTORABLE_TEXT_MESSAGE), request);
    reply.code(status).send(body);
  });
  return app;
}
