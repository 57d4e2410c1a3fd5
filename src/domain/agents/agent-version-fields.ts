import { isDeepStrictEqual } from "node:util";
import type { AgentVersionFields } from "../../db/schema/index.ts";
import type { Caller } from "../caller.ts";
import type { AgentRow } from "./agent-repo.ts";
import type { AgentVersionRow, NewAgentVersionRow } from "./agent-version-repo.ts";

export type { AgentVersionFields };

/** Who made a version: the signed-in user, or the API key (null: made by migration 0039). */
type AgentVersionAuthor = { type: "user" | "key"; id: string };

/** A version as the API shows it. */
export type AgentVersionView = {
  version: number;
  author: AgentVersionAuthor | null;
  createdAt: string;
  fields: AgentVersionFields;
};

type VersionedColumns = Pick<AgentRow, keyof AgentVersionFields>;

/** The answer-affecting fields of an agent, as the agent API shows them. */
export function versionFieldsOf(agent: VersionedColumns): AgentVersionFields {
  return {
    modelName: agent.modelName,
    temperature: agent.temperature,
    systemPrompt: agent.systemPrompt,
    userPrompt: agent.userPrompt,
    promptType: agent.promptType,
    promptTemplate: agent.promptTemplate,
    tools: agent.tools,
    useSuperRetrieval: agent.useSuperRetrieval,
    retrievalEvaluationConfig: agent.retrievalEvaluationConfig ?? {},
  };
}

/**
 * Whether two sets of fields answer alike: compared as JSON stores them (key order and keys
 * whose value is undefined play no part).
 */
export function sameVersionFields(a: AgentVersionFields, b: AgentVersionFields): boolean {
  return isDeepStrictEqual(JSON.parse(JSON.stringify(a)), JSON.parse(JSON.stringify(b)));
}

/** A key's caller is recorded as the key (it also has a user: the key's owner), a session's as its user. */
export function authorColumnsOf(
  caller: Pick<Caller, "userId" | "apiKeyId">,
): Pick<NewAgentVersionRow, "authorUserId" | "authorApiKeyId"> {
  return caller.apiKeyId
    ? { authorUserId: null, authorApiKeyId: caller.apiKeyId }
    : { authorUserId: caller.userId, authorApiKeyId: null };
}

export function toAgentVersionView(row: AgentVersionRow): AgentVersionView {
  const author: AgentVersionAuthor | null = row.authorApiKeyId
    ? { type: "key", id: row.authorApiKeyId }
    : row.authorUserId
      ? { type: "user", id: row.authorUserId }
      : null;
  return {
    version: row.version,
    author,
    createdAt: row.createdAt.toISOString(),
    fields: row.fields,
  };
}
