import { notFound } from "../../lib/errors.ts";
import type { Caller } from "../caller.ts";
import type { AgentService } from "./agent-service.ts";
import { type DatastoreLookup, datastoreIdsOf } from "./agent-tools.ts";
import {
  type AgentVersionFields,
  type AgentVersionView,
  toAgentVersionView,
} from "./agent-version-fields.ts";
import type { AgentVersionRepo } from "./agent-version-repo.ts";
import type { AgentView } from "./agent-view.ts";

/** One version of an agent, as other modules use it (an evaluation run of a past version). */
export type FoundAgentVersion = { version: number; fields: AgentVersionFields };

const versionNotFound = (version: number) => notFound(`Version ${version} not found`);

/**
 * The versions of agents: listed and read for a caller, restored (a change like a PATCH, so a new
 * version), and found by number for other modules (docs/agents.md, "Versions").
 */
export function createAgentVersionService(deps: {
  agents: Pick<AgentService, "requireAgent" | "applyVersionFields">;
  versions: Pick<AgentVersionRepo, "list" | "find">;
  datastores: DatastoreLookup;
}) {
  async function requireVersion(caller: Caller, agentId: string, version: number) {
    await deps.agents.requireAgent(caller.organizationId, agentId);
    const row = await deps.versions.find(caller.organizationId, agentId, version);
    if (!row) throw versionNotFound(version);
    return row;
  }

  return {
    /** The agent's versions, newest first. */
    async list(caller: Caller, agentId: string): Promise<AgentVersionView[]> {
      await deps.agents.requireAgent(caller.organizationId, agentId);
      const rows = await deps.versions.list(caller.organizationId, agentId);
      return rows.map(toAgentVersionView);
    },

    async get(caller: Caller, agentId: string, version: number): Promise<AgentVersionView> {
      return toAgentVersionView(await requireVersion(caller, agentId, version));
    },

    /**
     * Gives the agent the fields of `version` again, which makes a new version (none when they
     * are the current ones). Datastore tools whose datastore was deleted since are left out: such
     * a datastore is never searched, so the agent answers as that version did.
     */
    async restore(caller: Caller, agentId: string, version: number): Promise<AgentView> {
      const { fields } = await requireVersion(caller, agentId, version);
      const missing = new Set(
        await deps.datastores.missingDatastoreIds(caller, datastoreIdsOf(fields.tools)),
      );
      const tools = fields.tools.filter(
        (tool) => tool.type !== "datastore" || !missing.has(tool.datastoreId ?? ""),
      );
      return deps.agents.applyVersionFields(caller, agentId, { ...fields, tools });
    },

    /** findVersion: the organization's agent's version with this number; null when there is none. */
    async find(
      organizationId: string,
      agentId: string,
      version: number,
    ): Promise<FoundAgentVersion | null> {
      const row = await deps.versions.find(organizationId, agentId, version);
      return row ? { version: row.version, fields: row.fields } : null;
    },
  };
}

export type AgentVersionService = ReturnType<typeof createAgentVersionService>;
