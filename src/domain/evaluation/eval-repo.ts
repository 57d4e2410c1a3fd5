import { and, asc, desc, eq, inArray, lt, notExists, sql } from "drizzle-orm";
import { type Db, rowsOf } from "../../db/client.ts";
import {
  annotations,
  annotationTagLinks,
  type EvalRunStatus,
  evalCases,
  evalResults,
  evalRuns,
  evalSets,
  messages,
} from "../../db/schema/index.ts";
import type { SummaryCounts } from "./eval-checks.ts";

export type EvalSetRow = typeof evalSets.$inferSelect;
export type EvalCaseRow = typeof evalCases.$inferSelect;
export type NewEvalCaseRow = typeof evalCases.$inferInsert;
export type EvalRunRow = typeof evalRuns.$inferSelect;
export type NewEvalRunRow = typeof evalRuns.$inferInsert;
export type EvalResultRow = typeof evalResults.$inferSelect;

/** A reviewed agent answer, as an import reads it. */
export type AnnotatedAnswer = {
  annotationId: string;
  sentiment: "good" | "bad";
  comment: string;
  conversationId: string;
  messageId: string;
  answer: string;
  sources: Array<{ source: string }>;
  answeredAt: Date;
};

/** What a finished case records. */
export type CaseOutcome = Pick<
  EvalResultRow,
  "answer" | "sources" | "passed" | "checks" | "judge" | "latencyMs" | "credits"
>;

// Spelled out: drizzle writes a column of the selected fields without its table's name.
const caseCount = sql<number>`(select count(*)::int from eval_cases c where c.eval_set_id = "eval_sets"."id")`;

export function createEvalRepo(db: Db) {
  return {
    async insertSet(row: typeof evalSets.$inferInsert): Promise<EvalSetRow> {
      const [inserted] = await db.insert(evalSets).values(row).returning();
      return inserted!;
    },

    async findSet(organizationId: string, id: string, tx: Db = db) {
      const [row] = await tx
        .select({ set: evalSets, caseCount })
        .from(evalSets)
        .where(and(eq(evalSets.organizationId, organizationId), eq(evalSets.id, id)));
      return row ?? null;
    },

    async listSets(organizationId: string, agentId: string | undefined) {
      return db
        .select({ set: evalSets, caseCount })
        .from(evalSets)
        .where(
          and(
            eq(evalSets.organizationId, organizationId),
            agentId === undefined ? undefined : eq(evalSets.agentId, agentId),
          ),
        )
        .orderBy(desc(evalSets.createdAt), desc(evalSets.id));
    },

    async deleteSet(organizationId: string, id: string): Promise<boolean> {
      const deleted = await db
        .delete(evalSets)
        .where(and(eq(evalSets.organizationId, organizationId), eq(evalSets.id, id)))
        .returning({ id: evalSets.id });
      return deleted.length > 0;
    },

    /**
     * The set's row locked for the caller's transaction (so cases added side by side count each
     * other), with its number of cases; null when it is not the organization's.
     */
    async lockSet(tx: Db, organizationId: string, id: string) {
      const [row] = await tx
        .select({ id: evalSets.id })
        .from(evalSets)
        .where(and(eq(evalSets.organizationId, organizationId), eq(evalSets.id, id)))
        .for("update");
      if (!row) return null;
      const [counted] = await tx
        .select({ count: sql<number>`count(*)::int` })
        .from(evalCases)
        .where(eq(evalCases.evalSetId, id));
      return { caseCount: counted?.count ?? 0 };
    },

    /** Inserts cases; one already imported from the same annotation is skipped. */
    async insertCases(tx: Db, rows: NewEvalCaseRow[]): Promise<EvalCaseRow[]> {
      if (rows.length === 0) return [];
      const inserted = await tx
        .insert(evalCases)
        .values(rows)
        .onConflictDoNothing({ target: [evalCases.evalSetId, evalCases.annotationId] })
        .returning();
      if (inserted.length > 0) {
        await tx
          .update(evalSets)
          .set({ updatedAt: new Date() })
          .where(eq(evalSets.id, rows[0]!.evalSetId));
      }
      return inserted;
    },

    async listCases(organizationId: string, evalSetId: string, tx: Db = db) {
      return tx
        .select()
        .from(evalCases)
        .where(
          and(eq(evalCases.organizationId, organizationId), eq(evalCases.evalSetId, evalSetId)),
        )
        .orderBy(asc(evalCases.createdAt), asc(evalCases.id));
    },

    async deleteCase(organizationId: string, evalSetId: string, caseId: string) {
      const deleted = await db
        .delete(evalCases)
        .where(
          and(
            eq(evalCases.organizationId, organizationId),
            eq(evalCases.evalSetId, evalSetId),
            eq(evalCases.id, caseId),
          ),
        )
        .returning({ id: evalCases.id });
      return deleted.length > 0;
    },

    /**
     * The agent's reviewed answers matching the filters that the set has not imported yet, oldest
     * first, at most `limit`.
     */
    async annotatedAnswers(
      organizationId: string,
      evalSetId: string,
      agentId: string,
      filters: { sentiment?: "good" | "bad"; status?: string; tagIds?: string[] },
      limit: number,
    ): Promise<AnnotatedAnswer[]> {
      const rows = await db
        .select({
          annotationId: annotations.id,
          sentiment: annotations.sentiment,
          comment: annotations.comment,
          conversationId: annotations.conversationId,
          messageId: messages.id,
          answer: messages.text,
          sources: messages.sources,
          answeredAt: messages.createdAt,
        })
        .from(annotations)
        .innerJoin(messages, eq(messages.id, annotations.messageId))
        .where(
          and(
            eq(annotations.organizationId, organizationId),
            eq(annotations.agentId, agentId),
            filters.sentiment ? eq(annotations.sentiment, filters.sentiment) : undefined,
            filters.status ? eq(annotations.status, filters.status) : undefined,
            notExists(
              db
                .select({ id: evalCases.id })
                .from(evalCases)
                .where(
                  and(
                    eq(evalCases.evalSetId, evalSetId),
                    eq(evalCases.annotationId, annotations.id),
                  ),
                ),
            ),
            filters.tagIds && filters.tagIds.length > 0
              ? inArray(
                  annotations.id,
                  db
                    .select({ id: annotationTagLinks.annotationId })
                    .from(annotationTagLinks)
                    .where(inArray(annotationTagLinks.tagId, filters.tagIds)),
                )
              : undefined,
          ),
        )
        .orderBy(asc(annotations.createdAt), asc(annotations.id))
        .limit(limit);
      return rows as AnnotatedAnswer[];
    },

    /** The conversation's last `limit` messages before a time, oldest first (drafts excluded). */
    async messagesBefore(
      organizationId: string,
      conversationId: string,
      before: Date,
      limit: number,
    ) {
      const rows = await db
        .select({ from: messages.from, text: messages.text })
        .from(messages)
        .where(
          and(
            eq(messages.organizationId, organizationId),
            eq(messages.conversationId, conversationId),
            eq(messages.isDraft, false),
            lt(messages.createdAt, before),
          ),
        )
        .orderBy(desc(messages.createdAt), desc(messages.id))
        .limit(limit);
      return rows.reverse();
    },

    /** The run and one pending result per case of its set, as the cases are now. */
    async insertRun(tx: Db, row: NewEvalRunRow): Promise<{ run: EvalRunRow; cases: number }> {
      const [run] = await tx.insert(evalRuns).values(row).returning();
      const inserted = await tx.execute(sql`
        insert into ${evalResults}
          (run_id, case_id, organization_id, position, question, expectations)
        select ${row.id}, c.id, c.organization_id,
          (row_number() over (order by c.created_at, c.id))::int,
          c.question,
          jsonb_build_object(
            'history', c.history,
            'expectedAnswer', c.expected_answer,
            'mustInclude', c.must_include,
            'mustNotInclude', c.must_not_include,
            'expectedSources', c.expected_sources)
        from ${evalCases} c
        where c.eval_set_id = ${row.evalSetId} and c.organization_id = ${row.organizationId}
        returning case_id`);
      return { run: run!, cases: rowsOf(inserted).length };
    },

    async findRun(organizationId: string, id: string): Promise<EvalRunRow | null> {
      const [row] = await db
        .select()
        .from(evalRuns)
        .where(and(eq(evalRuns.organizationId, organizationId), eq(evalRuns.id, id)));
      return row ?? null;
    },

    async listRuns(organizationId: string, evalSetId: string | undefined, limit: number) {
      return db
        .select()
        .from(evalRuns)
        .where(
          and(
            eq(evalRuns.organizationId, organizationId),
            evalSetId === undefined ? undefined : eq(evalRuns.evalSetId, evalSetId),
          ),
        )
        .orderBy(desc(evalRuns.createdAt), desc(evalRuns.id))
        .limit(limit);
    },

    /** The results of the runs, in each run's case order; only the done ones with `doneOnly`. */
    async results(runIds: string[], options: { doneOnly: boolean }): Promise<EvalResultRow[]> {
      if (runIds.length === 0) return [];
      return db
        .select()
        .from(evalResults)
        .where(
          and(
            inArray(evalResults.runId, runIds),
            options.doneOnly ? eq(evalResults.done, true) : undefined,
          ),
        )
        .orderBy(asc(evalResults.runId), asc(evalResults.position));
    },

    /** Whether each case of the runs passed (null: not done), in each run's case order. */
    async outcomes(runIds: string[]) {
      const rows = await db
        .select({
          runId: evalResults.runId,
          caseId: evalResults.caseId,
          question: evalResults.question,
          done: evalResults.done,
          passed: evalResults.passed,
        })
        .from(evalResults)
        .where(inArray(evalResults.runId, runIds))
        .orderBy(asc(evalResults.runId), asc(evalResults.position));
      return rows.map((row) => ({ ...row, passed: row.done ? row.passed : null }));
    },

    /** Each run's results counted in the database: no answer or source leaves it for a summary. */
    async summaries(runIds: string[]): Promise<Map<string, SummaryCounts>> {
      if (runIds.length === 0) return new Map();
      const result = await db.execute(sql`
        select r.run_id,
          count(*)::int as cases,
          (count(*) filter (where r.done))::int as done,
          (count(*) filter (where r.done and r.passed))::int as passed,
          percentile_disc(0.5) within group (order by r.latency_ms)
            filter (where r.done and r.latency_ms is not null) as p50,
          coalesce(sum(r.credits) filter (where r.done), 0)::float8 as credits,
          coalesce(sum(jsonb_array_length(r.expectations -> 'expectedSources'))
            filter (where r.done), 0)::int as expected_sources,
          coalesce(sum((
            select count(*) from jsonb_array_elements_text(r.expectations -> 'expectedSources') e
            where exists (
              select from jsonb_array_elements(coalesce(r.sources, '[]'::jsonb)) cited
              where cited ->> 'source' = e.value)
          )) filter (where r.done), 0)::int as cited_sources
        from eval_results r
        where r.run_id in (${sql.join(
          runIds.map((id) => sql`${id}`),
          sql`, `,
        )})
        group by r.run_id`);
      return new Map(
        rowsOf<{
          run_id: string;
          cases: number;
          done: number;
          passed: number;
          p50: number | null;
          credits: number;
          expected_sources: number;
          cited_sources: number;
        }>(result).map((row) => [
          row.run_id,
          {
            cases: row.cases,
            done: row.done,
            passed: row.passed,
            p50LatencyMs: row.p50 === null ? null : Number(row.p50),
            credits: Number(row.credits),
            expectedSources: row.expected_sources,
            citedSources: row.cited_sources,
          },
        ]),
      );
    },

    /** Marks a queued (or, after a retry, running) run as running; null when it is over or gone. */
    async startRun(organizationId: string, id: string): Promise<EvalRunRow | null> {
      const [row] = await db
        .update(evalRuns)
        .set({ status: "running", startedAt: sql`coalesce(${evalRuns.startedAt}, now())` })
        .where(
          and(
            eq(evalRuns.organizationId, organizationId),
            eq(evalRuns.id, id),
            inArray(evalRuns.status, ["queued", "running"]),
          ),
        )
        .returning();
      return row ?? null;
    },

    /** The run's cases not done yet, in order. */
    async pendingResults(runId: string): Promise<EvalResultRow[]> {
      return db
        .select()
        .from(evalResults)
        .where(and(eq(evalResults.runId, runId), eq(evalResults.done, false)))
        .orderBy(asc(evalResults.position));
    },

    /** Records a case's outcome once: false when it was already recorded (a run retried). */
    async finishCase(runId: string, caseId: string, outcome: CaseOutcome): Promise<boolean> {
      const updated = await db
        .update(evalResults)
        .set({ ...outcome, done: true })
        .where(
          and(
            eq(evalResults.runId, runId),
            eq(evalResults.caseId, caseId),
            eq(evalResults.done, false),
          ),
        )
        .returning({ caseId: evalResults.caseId });
      return updated.length > 0;
    },

    /** Ends a run that is not over yet; false when it already was. */
    async endRun(
      organizationId: string,
      id: string,
      status: Extract<EvalRunStatus, "completed" | "failed">,
      error: string | null,
    ): Promise<boolean> {
      const updated = await db
        .update(evalRuns)
        .set({ status, error, finishedAt: new Date() })
        .where(
          and(
            eq(evalRuns.organizationId, organizationId),
            eq(evalRuns.id, id),
            inArray(evalRuns.status, ["queued", "running"]),
          ),
        )
        .returning({ id: evalRuns.id });
      return updated.length > 0;
    },
  };
}

export type EvalRepo = ReturnType<typeof createEvalRepo>;
