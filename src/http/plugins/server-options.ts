import Fastify from "fastify";
import {
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from "fastify-type-provider-zod";
import type { Logger } from "../../lib/logger.ts";
import type { App } from "../app-types.ts";
import { echoRequestId, generateRequestId } from "./request-id.ts";

export type ServerBasics = {
  logger: Logger;
  /** Proxy hops whose X-Forwarded-For is believed; 0 trusts none. */
  trustProxy: number;
  bodyLimitBytes: number;
};

/** A Fastify instance with what both listeners share: logging, request ids, zod schemas. */
export function createFastify({ logger, trustProxy, bodyLimitBytes }: ServerBasics): App {
  const app = Fastify({
    loggerInstance: logger,
    genReqId: generateRequestId,
    trustProxy: trustProxy > 0 ? (_address: string, hop: number) => hop < trustProxy : false,
    bodyLimit: bodyLimitBytes,
    return503OnClosing: true,
  }).withTypeProvider<ZodTypeProvider>() as unknown as App;
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  echoRequestId(app);
  return app;
}
