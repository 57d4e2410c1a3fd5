import { and, asc, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { agents } from "../../db/schema/index.ts";
import { creationTime } from "../../lib/creation-time.ts";

export type AgentRow = typeof agents.$inferSelect;
export type NewAgentRow = typeof agents.$inferInsert;
export type AgentChanges = Partial<
  Omit<NewAgentRow, "id" | "organizationId" | "createdAt" | "version">
>;

export function createAgentRepo(db: Db) {
  return {
    async insert(row: NewAgentRow, tx: Db = db): Promise<AgentRow> {
      const [inserted] = await tx
        .insert(agents)
        .values({ createdAt: creationTime(), ...row })
        .returning();
      return inserted!;
    },

    async findById(organizationId: string, agentId: string, tx: Db = db): Promise<AgentRow | null> {
      const [row] = await tx
        .select()
        .from(agents)
        .where(and(eq(agents.organizationId, organizationId), eq(agents.id, agentId)));
      return row ?? null;
    },

    /** The agent, locked until the transaction `tx` ends: changes to it then run one by one. */
    async findForUpdate(organizationId: string, agentId: string, tx: Db): Promise<AgentRow | null> {
      const [row] = await tx
        .select()
        .from(agents)
        .where(and(eq(agents.organizationId, organizationId), eq(agents.id, agentId)))
        .for("update");
      return row ?? null;
    },

    /**
     * The agent whatever its organization: only for endpoints a caller may use without a key
     * (a public agent), which then check visibility and organization themselves.
     */
    async findByIdInAnyOrganization(agentId: string, tx: Db = db): Promise<AgentRow | null> {
      const [row] = await tx.select().from(agents).where(eq(agents.id, agentId));
      return row ?? null;
    },

    async list(organizationId: string, tx: Db = db): Promise<AgentRow[]> {
      return tx
        .select()
        .from(agents)
        .where(eq(agents.organizationId, organizationId))
        .orderBy(asc(agents.createdAt), asc(agents.id));
    },

    /** Applies `changes`; with `newVersion`, the agent's version number goes up by one. */
    async update(
      organizationId: string,
      agentId: string,
      changes: AgentChanges,
      tx: Db = db,
      options: { newVersion?: boolean } = {},
    ): Promise<AgentRow | null> {
      const [row] = await tx
        .update(agents)
        .set({
          ...changes,
          ...(options.newVersion ? { version: sql`${agents.version} + 1` } : {}),
          updatedAt: new Date(),
        })
        .where(and(eq(agents.organizationId, organizationId), eq(agents.id, agentId)))
        .returning();
      return row ?? null;
    },

    async delete(organizationId: string, agentId: string, tx: Db = db): Promise<AgentRow | null> {
      const [row] = await tx
        .delete(agents)
        .where(and(eq(agents.organizationId, organizationId), eq(agents.id, agentId)))
        .returning();
      return row ?? null;
    },
  };
}

export type AgentRepo = ReturnType<typeof createAgentRepo>;
