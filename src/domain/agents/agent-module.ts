import type { Db } from "../../db/client.ts";
import type { Caller } from "../caller.ts";
import { createAgentRepo } from "./agent-repo.ts";
import { createAgentService } from "./agent-service.ts";
import { datastoreLookupOver } from "./agent-tools.ts";
import { createAgentVersionRepo } from "./agent-version-repo.ts";
import { createAgentVersionService } from "./agent-versions.ts";

export type AgentModuleDeps = {
  db: Db;
  /** The datastores an agent may name: the caller's own. */
  knowledge: { datastores: { list(context: Caller): Promise<Array<{ id: string }>> } };
};

/** Agents and their versions. */
export function createAgentModule(deps: AgentModuleDeps) {
  const { db } = deps;
  const agentRepo = createAgentRepo(db);
  const versionRepo = createAgentVersionRepo(db);
  const datastores = datastoreLookupOver((caller) => deps.knowledge.datastores.list(caller));
  const agents = createAgentService({ db, agents: agentRepo, versions: versionRepo, datastores });
  return {
    agents,
    /** list, get, restore; `find` (findVersion) for other modules, without a caller. */
    agentVersions: createAgentVersionService({ agents, versions: versionRepo, datastores }),
    /**
     * The agents' records, read without a caller: by the modules that answer for an agent
     * (channels, conversational windows, follow-ups) and the endpoints that find the
     * organization from the agent (query-agent, transcription).
     */
    agentRecords: agentRepo,
  };
}
