import type { Db } from "../../db/client.ts";
import { createNotifiedCache, frozen } from "../../db/notified-cache.ts";
import { notFound } from "../../lib/errors.ts";
import { newId } from "../../lib/ids.ts";
import { type Caller, mayUseAgent } from "../caller.ts";
import type { AgentChanges, AgentRepo, AgentRow } from "./agent-repo.ts";
import {
  type AgentToolInput,
  type DatastoreLookup,
  mergeAgentTools,
  validateAgentTools,
} from "./agent-tools.ts";
import {
  type AgentVersionFields,
  authorColumnsOf,
  sameVersionFields,
  versionFieldsOf,
} from "./agent-version-fields.ts";
import type { AgentVersionRepo } from "./agent-version-repo.ts";
import { type AgentView, toAgentView } from "./agent-view.ts";

/** Every settable field of an agent; all optional on update. */
export type AgentFields = Omit<
  AgentChanges,
  "tools" | "updatedAt" | "retrievalEvaluationConfig" | "followUpConfig"
> & {
  retrievalEvaluationConfig?: Record<string, unknown> | null;
  followUpConfig?: Record<string, unknown> | null;
  tools?: AgentToolInput[];
  /** Shorthand for datastore tools (see mergeAgentTools). */
  datastoreIds?: string[];
};

export type NewAgentFields = AgentFields & { name: string };

const agentNotFound = () => notFound("Agent not found");

/** The channel on which changes to agents are announced (migration 0014). */
export const AGENTS_CHANGED_CHANNEL = "agents_changed";

/** Bounds how long an agent read is used should a change notification be lost. */
const AGENT_TTL_MS = 60_000;
const AGENTS_KEPT_MAX = 10_000;

export function createAgentService(deps: {
  db: Db;
  agents: AgentRepo;
  versions: Pick<AgentVersionRepo, "insert">;
  datastores: DatastoreLookup;
}) {
  // Every query reads its agent: kept by id while agents_changed announces no change to it.
  const kept = createNotifiedCache<AgentRow>({
    ttlMs: AGENT_TTL_MS,
    maxEntries: AGENTS_KEPT_MAX,
    idOf: (agent) => agent.id,
  });

  async function requireAgent(organizationId: string, agentId: string): Promise<AgentRow> {
    let agent = kept.get(agentId);
    if (!agent) {
      const ticket = kept.ticket();
      agent = await deps.agents.findById(organizationId, agentId);
      if (!agent) throw agentNotFound();
      kept.keep(agentId, frozen(agent), ticket);
    }
    if (agent.organizationId !== organizationId) throw agentNotFound();
    return agent;
  }

  /**
   * A public agent, whatever its organization, for the endpoints a visitor uses without a key;
   * null for a private or unknown id alike.
   */
  async function findPublic(agentId: string): Promise<AgentRow | null> {
    let agent = kept.get(agentId);
    if (!agent) {
      const ticket = kept.ticket();
      const found = await deps.agents.findByIdInAnyOrganization(agentId);
      if (!found) return null;
      agent = frozen(found);
      kept.keep(agentId, agent, ticket);
    }
    return agent.visibility === "public" ? agent : null;
  }

  /**
   * Applies the changes `changesOf` makes of the locked agent (null: none, it stays as it is) in
   * one transaction with the version they make: when an answer-affecting field changes, the
   * agent's version number goes up by one and the new version is stored with it. The row lock
   * orders concurrent changes, so each version is made from the one before it and numbered
   * without gap or repeat (agent_versions' unique index would refuse a repeat).
   */
  async function change(
    caller: Caller,
    agentId: string,
    changesOf: (current: AgentRow) => AgentChanges | null,
  ): Promise<AgentView> {
    const row = await deps.db.transaction(async (tx) => {
      const current = await deps.agents.findForUpdate(caller.organizationId, agentId, tx);
      if (!current) throw agentNotFound();
      const changes = changesOf(current);
      if (changes === null) return current;
      const fields = versionFieldsOf({ ...current, ...changes });
      const newVersion = !sameVersionFields(versionFieldsOf(current), fields);
      const updated = await deps.agents.update(caller.organizationId, agentId, changes, tx, {
        newVersion,
      });
      if (!updated) throw agentNotFound();
      if (newVersion) {
        await deps.versions.insert(
          {
            id: newId(),
            organizationId: caller.organizationId,
            agentId,
            version: updated.version,
            fields,
            ...authorColumnsOf(caller),
            createdAt: updated.updatedAt,
          },
          tx,
        );
      }
      return updated;
    });
    // The notification reaches this process too, but maybe after the caller's next request.
    kept.forget(agentId);
    return toAgentView(row);
  }

  return {
    requireAgent,
    findPublic,
    /** To be told of changes to agents made by any process (AGENTS_CHANGED_CHANNEL). */
    agentChanges: kept.events,

    async create(caller: Caller, input: NewAgentFields): Promise<AgentView> {
      const { tools: toolInput, datastoreIds, ...fields } = input;
      const tools = mergeAgentTools([], { tools: toolInput, datastoreIds });
      await validateAgentTools(caller, tools, deps.datastores);
      const row = await deps.db.transaction(async (tx) => {
        const created = await deps.agents.insert(
          {
            ...fields,
            id: newId(),
            organizationId: caller.organizationId,
            modelName: fields.modelName ?? "gpt_4o_mini",
            tools,
          },
          tx,
        );
        await deps.versions.insert(
          {
            id: newId(),
            organizationId: caller.organizationId,
            agentId: created.id,
            version: created.version,
            fields: versionFieldsOf(created),
            ...authorColumnsOf(caller),
            createdAt: created.createdAt,
          },
          tx,
        );
        return created;
      });
      return toAgentView(row);
    },

    async list(caller: Caller): Promise<AgentView[]> {
      const agents = await deps.agents.list(caller.organizationId);
      return agents.filter((agent) => mayUseAgent(caller, agent.id)).map(toAgentView);
    },

    async get(caller: Caller, agentId: string): Promise<AgentView> {
      return toAgentView(await requireAgent(caller.organizationId, agentId));
    },

    async update(caller: Caller, agentId: string, input: AgentFields): Promise<AgentView> {
      const { tools: toolInput, datastoreIds, ...fields } = input;
      const toolsSent = toolInput !== undefined || datastoreIds !== undefined;
      if (toolsSent) {
        const current = await requireAgent(caller.organizationId, agentId);
        const tools = mergeAgentTools(current.tools, { tools: toolInput, datastoreIds });
        await validateAgentTools(caller, tools, deps.datastores);
      } else if (Object.keys(fields).length === 0) {
        return toAgentView(await requireAgent(caller.organizationId, agentId));
      }
      // Merged again with the locked row, so a change made meanwhile keeps its tools; the
      // datastores the request names were checked above.
      return change(caller, agentId, (current) =>
        toolsSent
          ? { ...fields, tools: mergeAgentTools(current.tools, { tools: toolInput, datastoreIds }) }
          : fields,
      );
    },

    /**
     * Sets an agent's answer-affecting fields as one change (restoring a version): a new
     * version when they differ from the current ones.
     */
    async applyVersionFields(
      caller: Caller,
      agentId: string,
      fields: AgentVersionFields,
    ): Promise<AgentView> {
      return change(caller, agentId, (current) =>
        sameVersionFields(versionFieldsOf(current), fields) ? null : fields,
      );
    },

    async remove(caller: Caller, agentId: string): Promise<AgentView> {
      const row = await deps.agents.delete(caller.organizationId, agentId);
      if (!row) throw agentNotFound();
      kept.forget(agentId);
      return toAgentView(row);
    },
  };
}

export type AgentService = ReturnType<typeof createAgentService>;
