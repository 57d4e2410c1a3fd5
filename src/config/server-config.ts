import { z } from "zod";
import { boolVar, intVar, optionalString } from "./env-types.ts";

export const serverEnvSchema = z.object({
  PORT: intVar(3000, 0, 65535).describe("Port of the dashboard API listener"),
  SITE_PORT: intVar(3001, 0, 65535).describe("Port of the marketing-site listener"),
  WORKER_PORT: intVar(3002, 0, 65535).describe(
    "Port of the worker role's listener: health, readiness and /metrics",
  ),
  HOST: z.string().min(1).default("127.0.0.1").describe("Interface both listeners bind"),
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  TRUST_PROXY: intVar(0, 0, 10).describe("Proxy hops whose X-Forwarded-For is trusted"),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  LOG_FORMAT: optionalString()
    .pipe(z.enum(["json", "pretty"]).optional())
    .describe("json: one JSON object a line; pretty: for a terminal; unset: pretty on a terminal"),
  ADMIN_TOKEN: optionalString().describe(
    "Lets this bearer token use /api/admin/* (as instance administrators' sessions do) and /metrics",
  ),
  SHUTDOWN_TIMEOUT_MS: intVar(10_000, 0, 600_000),
  BOOTSTRAP_DEFAULT_ORG: boolVar(true).describe("Create a Default organization on first start"),
});

export function serverConfig(env: z.output<typeof serverEnvSchema>) {
  return {
    port: env.PORT,
    sitePort: env.SITE_PORT,
    workerPort: env.WORKER_PORT,
    host: env.HOST,
    production: env.NODE_ENV === "production",
    nodeEnv: env.NODE_ENV,
    trustProxy: env.TRUST_PROXY,
    logLevel: env.LOG_LEVEL,
    /** Undefined when not set: the logger then picks by whether stdout is a terminal. */
    logFormat: env.LOG_FORMAT,
    adminToken: env.ADMIN_TOKEN,
    shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT_MS,
    bootstrapDefaultOrganization: env.BOOTSTRAP_DEFAULT_ORG,
  };
}
