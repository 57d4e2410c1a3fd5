import { and, asc, eq, inArray, or, sql } from "drizzle-orm";
import { type Db, rowsOf, tableRowOf } from "../../db/client.ts";
import { datastores } from "../../db/schema/index.ts";
import { type StatementPart, withClause } from "../../db/statement-parts.ts";
import { creationTime } from "../../lib/creation-time.ts";
import { questionLexemesSql } from "../../retrieval/text-query.ts";

export type DatastoreRow = typeof datastores.$inferSelect;
export type DatastoreChanges = Partial<
  Pick<DatastoreRow, "name" | "description" | "visibility" | "embedderId" | "dimensions">
>;

export function createDatastoreRepo(db: Db) {
  return {
    async insert(row: typeof datastores.$inferInsert, tx: Db = db): Promise<DatastoreRow> {
      const [inserted] = await tx
        .insert(datastores)
        .values({ createdAt: creationTime(), ...row })
        .returning();
      return inserted!;
    },

    async find(organizationId: string, datastoreId: string, tx: Db = db) {
      const [row] = await tx
        .select()
        .from(datastores)
        .where(and(eq(datastores.organizationId, organizationId), eq(datastores.id, datastoreId)));
      return row ?? null;
    },

    /** A datastore the caller may read: its own, or any public one (organizationId null: anonymous). */
    async findReadable(organizationId: string | null, datastoreId: string, tx: Db = db) {
      const visible =
        organizationId === null
          ? eq(datastores.visibility, "public")
          : or(eq(datastores.visibility, "public"), eq(datastores.organizationId, organizationId));
      const [row] = await tx
        .select()
        .from(datastores)
        .where(and(eq(datastores.id, datastoreId), visible));
      return row ?? null;
    },

    /**
     * The readable datastores among `datastoreIds` (unknown or foreign private ids are left out),
     * the question's lexemes (null when no datastore is readable) and another part's result, all
     * read in one statement.
     */
    async listReadableForQuestion<Along>(
      organizationId: string,
      datastoreIds: string[],
      question: string,
      along: StatementPart<Along>,
      tx: Db = db,
    ): Promise<{ stores: DatastoreRow[]; questionLexemes: string[] | null; along: Along }> {
      const rows = rowsOf(
        await tx.execute(sql`${withClause(along)}
          select ${datastores}.*, ${questionLexemesSql(question)} as question_lexemes,
            along_part.*
          from (select) as one
            left join lateral (${along.row}) as along_part on true
            left join ${datastores} on ${and(
              inArray(datastores.id, datastoreIds),
              or(
                eq(datastores.visibility, "public"),
                eq(datastores.organizationId, organizationId),
              ),
            )}`),
      );
      const readable = rows.filter((row) => row.id != null);
      return {
        stores: readable.map((row) => tableRowOf(datastores, row)),
        questionLexemes: (readable[0]?.question_lexemes as string[] | undefined) ?? null,
        along: along.read(rows[0]),
      };
    },

    async list(organizationId: string, tx: Db = db): Promise<DatastoreRow[]> {
      return tx
        .select()
        .from(datastores)
        .where(eq(datastores.organizationId, organizationId))
        .orderBy(asc(datastores.createdAt), asc(datastores.id));
    },

    async update(
      organizationId: string,
      datastoreId: string,
      changes: DatastoreChanges,
      tx: Db = db,
    ): Promise<DatastoreRow | null> {
      const [row] = await tx
        .update(datastores)
        .set({ ...changes, updatedAt: sql`now()` })
        .where(and(eq(datastores.organizationId, organizationId), eq(datastores.id, datastoreId)))
        .returning();
      return row ?? null;
    },

    async delete(organizationId: string, datastoreId: string, tx: Db = db) {
      const [row] = await tx
        .delete(datastores)
        .where(and(eq(datastores.organizationId, organizationId), eq(datastores.id, datastoreId)))
        .returning();
      return row ?? null;
    },

    /** Every dimension count in use, so each gets its vector index. */
    async distinctDimensions(tx: Db = db): Promise<number[]> {
      const rows = await tx.selectDistinct({ dimensions: datastores.dimensions }).from(datastores);
      return rows.map((row) => row.dimensions);
    },
  };
}

export type DatastoreRepo = ReturnType<typeof createDatastoreRepo>;
