import { createNotifiedCache } from "../../db/notified-cache.ts";
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

/** Agents read once are shared by the requests that follow: nothing may change them. */
function frozen<Value>(value: Value): Value {
  if (typeof value === "object" && value !== null && !(value instanceof Date)) {
    for (const child of Object.values(value)) frozen(child);
    Object.freeze(value);
  }
  return value;
}

export function createAgentService(deps: { agents: AgentRepo; datastores: DatastoreLookup }) {
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

  return {
    requireAgent,
    findPublic,
    /** To be told of changes to agents made by any process (AGENTS_CHANGED_CHANNEL). */
    agentChanges: kept.events,

    async create(caller: Caller, input: NewAgentFields): Promise<AgentView> {
      const { tools: toolInput, datastoreIds, ...fields } = input;
      const tools = mergeAgentTools([], { tools: toolInput, datastoreIds });
      await validateAgentTools(caller, tools, deps.datastores);
      const row = await deps.agents.insert({
        ...fields,
        id: newId(),
        organizationId: caller.organizationId,
        modelName: fields.modelName ?? "gpt_4o_mini",
        tools,
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
      const changes: AgentChanges = { ...fields };
      if (toolInput !== undefined || datastoreIds !== undefined) {
        const current = await requireAgent(caller.organizationId, agentId);
        changes.tools = mergeAgentTools(current.tools, { tools: toolInput, datastoreIds });
        await validateAgentTools(caller, changes.tools, deps.datastores);
      }
      if (Object.keys(changes).length === 0)
        return toAgentView(await requireAgent(caller.organizationId, agentId));
      const row = await deps.agents.update(caller.organizationId, agentId, changes);
      if (!row) throw agentNotFound();
      // The notification reaches this process too, but maybe after the caller's next request.
      kept.forget(agentId);
      return toAgentView(row);
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
