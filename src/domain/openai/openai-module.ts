import type { Db } from "../../db/client.ts";
import { createAnsweredMessageRepo } from "./answered-message-repo.ts";
import { createOpenAiService, type OpenAiServiceDeps } from "./openai-service.ts";

/** The OpenAI-compatible API under /v1: the agents as models, answering through the query path. */
export function createOpenAiModule(deps: Omit<OpenAiServiceDeps, "answeredMessages"> & { db: Db }) {
  return {
    openai: createOpenAiService({
      agents: deps.agents,
      query: deps.query,
      answeredMessages: createAnsweredMessageRepo(deps.db),
    }),
  };
}
