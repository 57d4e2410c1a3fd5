import type { AgentTool } from "../../db/schema/index.ts";
import { invalid } from "../../lib/errors.ts";
import { newId } from "../../lib/ids.ts";
import type { Caller } from "../caller.ts";

/** A tool as a client sends it: the id is generated when omitted. */
export type AgentToolInput = Omit<AgentTool, "id"> & { id?: string };

/** Answers which of the given datastore ids do not exist in the organization. */
export type DatastoreLookup = {
  missingDatastoreIds(caller: Caller, datastoreIds: readonly string[]): Promise<string[]>;
};

const DATASTORE_TOOL = "datastore";

/** The datastore ids an agent retrieves from, in tool order, without repeats. */
export function datastoreIdsOf(tools: readonly AgentTool[]): string[] {
  const ids = tools
    .filter((tool) => tool.type === DATASTORE_TOOL && tool.datastoreId)
    .map((tool) => tool.datastoreId as string);
  return [...new Set(ids)];
}

/**
 * The tool list an agent ends up with. `tools`, when sent, replaces the list; `datastoreIds`, when
 * sent, replaces the datastore tools (keeping the other tools, and the id and config of a
 * datastore tool that stays) and adds one for every id not already there.
 */
export function mergeAgentTools(
  current: readonly AgentTool[],
  input: { tools?: readonly AgentToolInput[]; datastoreIds?: readonly string[] },
): AgentTool[] {
  const explicit = input.tools !== undefined;
  let tools: AgentTool[] = (input.tools ?? current).map((tool) => ({
    ...tool,
    id: tool.id ?? newId(),
  }));
  if (input.datastoreIds !== undefined) {
    const wanted = new Set(input.datastoreIds);
    if (!explicit) {
      tools = tools.filter(
        (tool) => tool.type !== DATASTORE_TOOL || wanted.has(tool.datastoreId ?? ""),
      );
    }
    const present = new Set(datastoreIdsOf(tools));
    for (const datastoreId of wanted) {
      if (!present.has(datastoreId)) tools.push({ id: newId(), type: DATASTORE_TOOL, datastoreId });
    }
  }
  return tools;
}

/** Checks tool ids are unique, datastore tools name a datastore, and that datastore is ours. */
export async function validateAgentTools(
  caller: Caller,
  tools: readonly AgentTool[],
  datastores: DatastoreLookup,
): Promise<void> {
  const seen = new Set<string>();
  for (const [index, tool] of tools.entries()) {
    if (seen.has(tool.id)) {
      throw invalid(`Tool id "${tool.id}" is used twice`, [
        { path: `body.tools.${index}.id`, message: "is used by another tool" },
      ]);
    }
    seen.add(tool.id);
    if (tool.type === DATASTORE_TOOL && !tool.datastoreId) {
      throw invalid("A datastore tool needs a datastoreId", [
        { path: `body.tools.${index}.datastoreId`, message: "is required for a datastore tool" },
      ]);
    }
  }
  const datastoreIds = datastoreIdsOf(tools);
  if (datastoreIds.length === 0) return;
  const missing = await datastores.missingDatastoreIds(caller, datastoreIds);
  if (missing.length > 0) {
    throw invalid(
      `Unknown datastore${missing.length > 1 ? "s" : ""} in this organization: ${missing.join(", ")}`,
      missing.map((id) => ({ path: "body.tools", message: `datastore ${id} does not exist` })),
    );
  }
}

/** A DatastoreLookup over a function that lists the organization's datastores. */
export function datastoreLookupOver(
  listDatastores: (caller: Caller) => Promise<ReadonlyArray<{ id: string }>>,
): DatastoreLookup {
  return {
    async missingDatastoreIds(caller, datastoreIds) {
      const owned = new Set((await listDatastores(caller)).map((datastore) => datastore.id));
      return datastoreIds.filter((datastoreId) => !owned.has(datastoreId));
    },
  };
}
