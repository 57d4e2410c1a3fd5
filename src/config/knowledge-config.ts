import { z } from "zod";
import { canonicalHostName } from "../lib/safe-fetch.ts";
import { intVar, optionalString } from "./env-types.ts";

const MIB = 1024 * 1024;

/** "plan=tokens,plan=tokens"; a plan not listed has no stored-token limit. */
const tokenLimits = z
  .string()
  .default("free=2000000")
  .transform((value, context) => {
    const limits: Record<string, number> = {};
    for (const entry of value.split(",").map((part) => part.trim())) {
      if (entry === "") continue;
      const match = /^([A-Za-z0-9_.-]+)\s*=\s*(\d{1,15})$/.exec(entry);
      if (!match) {
        context.addIssue({
          code: "custom",
          message: `"${entry}" is not plan=tokens (e.g. free=2000000,pro=50000000)`,
        });
        return z.NEVER;
      }
      limits[match[1]!] = Number(match[2]);
    }
    return limits;
  });

/** "host,host": names or IP addresses as URLs spell them, without scheme, port or path. */
const hostList = z
  .string()
  .default("")
  .transform((value, context) => {
    const hosts: string[] = [];
    for (const entry of value.split(",").map((part) => part.trim())) {
      if (entry === "") continue;
      const hostname = canonicalHostName(entry);
      if (hostname === null) {
        context.addIssue({
          code: "custom",
          message: `"${entry}" is not a host name or IP address (no scheme, port or path; e.g. wiki.intranet,10.0.0.5)`,
        });
        return z.NEVER;
      }
      hosts.push(hostname);
    }
    return hosts;
  });

export const knowledgeEnvSchema = z.object({
  UPLOAD_MAX_BYTES: intVar(25 * MIB, 1, 1024 * MIB).describe(
    "Largest datasource upload; a bigger file gets 413",
  ),
  WEB_SITE_PAGE_LIMIT: intVar(200, 1, 10_000).describe("Most pages indexed per web_site"),
  EMBEDDINGS_MODEL: optionalString()
    .pipe(
      z
        .string()
        .regex(
          /^[a-z0-9-]+:\S+$/,
          'must look like "provider:model", e.g. openai:text-embedding-3-small',
        )
        .optional(),
    )
    .describe("Embedding model of new datastores; default: the built-in local embedder"),
  EMBEDDINGS_DIMENSIONS: intVar(1536, 16, 16_000).describe(
    "Vector size of EMBEDDINGS_MODEL (asked of models that can shorten their vectors)",
  ),
  KNOWLEDGE_PLAN_LIMITS: tokenLimits.describe(
    "Stored-token limit per organization plan, e.g. free=2000000,pro=50000000",
  ),
  KNOWLEDGE_INGEST_TIMEOUT_MS: intVar(15 * 60_000, 1_000, 50 * 60_000).describe(
    "Longest one ingestion job may run before its datasource ends in error",
  ),
  KNOWLEDGE_FETCH_MAX_BYTES: intVar(10 * MIB, 1_024, 200 * MIB).describe(
    "Largest web page or sitemap fetched",
  ),
  KNOWLEDGE_FETCH_TIMEOUT_MS: intVar(15_000, 100, 120_000).describe("Time budget per fetch"),
  KNOWLEDGE_EXACT_CACHE_MB: intVar(256, 0, 64 * 1024).describe(
    "Memory for ranking vectors and full text in the application (no pgvector, or PGlite); 0 turns it off",
  ),
  DOCUMENT_PARSER_MEMORY_MB: intVar(512, 32, 64 * 1024).describe(
    "Heap of one document parser thread; a document that needs more ends in error",
  ),
  DOCUMENT_PARSER_TIMEOUT_MS: intVar(120_000, 1_000, 50 * 60_000).describe(
    "Longest one document or web page may take to read; its parser thread is then stopped",
  ),
  DOCUMENT_PARSER_THREADS: intVar(2, 1, 64).describe(
    "Documents read side by side, each in a thread of its own",
  ),
  DOCUMENT_MAX_CHARACTERS: intVar(20_000_000, 1_000, 200_000_000).describe(
    "Most characters of text one document may hold; a longer one ends in error, unread",
  ),
  FETCH_ALLOWED_HOSTS: hostList.describe(
    "Hosts fetched even when they resolve to private or loopback addresses in production",
  ),
});

export function knowledgeConfig(env: z.output<typeof knowledgeEnvSchema>) {
  return {
    uploadMaxBytes: env.UPLOAD_MAX_BYTES,
    webSitePageLimit: env.WEB_SITE_PAGE_LIMIT,
    /** undefined: the local embedder. */
    embeddingsModel: env.EMBEDDINGS_MODEL,
    embeddingsDimensions: env.EMBEDDINGS_DIMENSIONS,
    storedTokenLimits: env.KNOWLEDGE_PLAN_LIMITS,
    ingestTimeoutMs: env.KNOWLEDGE_INGEST_TIMEOUT_MS,
    exactCacheBytes: env.KNOWLEDGE_EXACT_CACHE_MB * MIB,
    fetchMaxBytes: env.KNOWLEDGE_FETCH_MAX_BYTES,
    fetchTimeoutMs: env.KNOWLEDGE_FETCH_TIMEOUT_MS,
    parser: {
      maxMemoryMb: env.DOCUMENT_PARSER_MEMORY_MB,
      timeoutMs: env.DOCUMENT_PARSER_TIMEOUT_MS,
      threads: env.DOCUMENT_PARSER_THREADS,
      maxCharacters: env.DOCUMENT_MAX_CHARACTERS,
    },
    /** Exempt from the production SSRF rules (the host as written in each URL, not a redirect's). */
    fetchAllowedHosts: env.FETCH_ALLOWED_HOSTS,
  };
}

export type KnowledgeConfig = ReturnType<typeof knowledgeConfig>;
