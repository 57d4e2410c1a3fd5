import { and, desc, eq } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { agentVersions } from "../../db/schema/index.ts";

export type AgentVersionRow = typeof agentVersions.$inferSelect;
export type NewAgentVersionRow = typeof agentVersions.$inferInsert;

/** The versions of agents: written once each, never updated (docs/agents.md, "Versions"). */
export function createAgentVersionRepo(db: Db) {
  return {
    async insert(row: NewAgentVersionRow, tx: Db = db): Promise<AgentVersionRow> {
      const [inserted] = await tx.insert(agentVersions).values(row).returning();
      return inserted!;
    },

    /** The agent's versions, newest first. */
    async list(organizationId: string, agentId: string, tx: Db = db): Promise<AgentVersionRow[]> {
      return tx
        .select()
        .from(agentVersions)
        .where(
          and(eq(agentVersions.organizationId, organizationId), eq(agentVersions.agentId, agentId)),
        )
        .orderBy(desc(agentVersions.version));
    },

    async find(
      organizationId: string,
      agentId: string,
      version: number,
      tx: Db = db,
    ): Promise<AgentVersionRow | null> {
      const [row] = await tx
        .select()
        .from(agentVersions)
        .where(
          and(
            eq(agentVersions.organizationId, organizationId),
            eq(agentVersions.agentId, agentId),
            eq(agentVersions.version, version),
          ),
        );
      return row ?? null;
    },
  };
}

export type AgentVersionRepo = ReturnType<typeof createAgentVersionRepo>;
