import type { DocumentParser } from "../../ingestion/parser/document-parser.ts";
import type { SafeFetcher } from "../../lib/safe-fetch.ts";
import {
  type AnswerPipelineDeps,
  createAnswerPipeline,
  type QueryConfig,
  querySettingsOf,
} from "./answer-pipeline.ts";
import { createAttachmentReader } from "./attachment-reader.ts";
import { createQueryService, type QueryServiceDeps } from "./query-service.ts";

export type AnswerModuleDeps = Pick<AnswerPipelineDeps, "models" | "logger"> & {
  fetcher: SafeFetcher;
  parser: Pick<DocumentParser, "load">;
  /** The agents' settings the answers follow (budgets, retrieval, attachments). */
  settings: QueryConfig;
  /** The model call's time and output bounds. */
  model: { timeoutMs: number; maxOutputTokens: number };
};

/**
 * The steps of an answer, shared by every path that answers (the query endpoint, conversational
 * windows, channels, evaluation): the attachment reader and the one answer pipeline.
 */
export function createAnswerModule(deps: AnswerModuleDeps) {
  const attachments = createAttachmentReader({
    fetcher: deps.fetcher,
    parser: deps.parser,
    limits: deps.settings.attachments,
  });
  const answers = createAnswerPipeline({
    models: deps.models,
    attachments,
    ...(deps.logger ? { logger: deps.logger } : {}),
    settings: querySettingsOf(deps.settings, deps.model),
  });
  return { attachments, answers };
}

/** The query path: a message answered from the agent's knowledge, stored with its turn. */
export function createQueryModule(deps: QueryServiceDeps) {
  return { query: createQueryService(deps) };
}
