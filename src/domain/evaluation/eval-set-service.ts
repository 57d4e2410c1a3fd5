import type { Db } from "../../db/client.ts";
import type { EvalHistoryMessage } from "../../db/schema/index.ts";
import { AppError, notFound } from "../../lib/errors.ts";
import { newId } from "../../lib/ids.ts";
import { type Caller, mayUseAgent, refuseOtherAgent } from "../caller.ts";
import { HISTORY_MESSAGES } from "../query/answer-pipeline.ts";
import type {
  AnnotatedAnswer,
  EvalCaseRow,
  EvalRepo,
  EvalSetRow,
  NewEvalCaseRow,
} from "./eval-repo.ts";
import type { EvalCaseInput, EvalImportInput, EvalSetInput } from "./eval-request.ts";

/** Cases one set holds at most: a run replays them all, one model call (or two) each. */
const MAX_CASES_PER_SET = 1_000;

export type EvalSetView = {
  id: string;
  name: string;
  agentId: string;
  caseCount: number;
  createdAt: string;
  updatedAt: string;
};

export type EvalCaseView = {
  id: string;
  evalSetId: string;
  question: string;
  history: EvalHistoryMessage[];
  expectedAnswer: string | null;
  mustInclude: string[];
  mustNotInclude: string[];
  expectedSources: string[];
  /** The annotation the case was imported from, if any. */
  annotationId: string | null;
  createdAt: string;
};

const setView = ({ set, caseCount }: { set: EvalSetRow; caseCount: number }): EvalSetView => ({
  id: set.id,
  name: set.name,
  agentId: set.agentId,
  caseCount,
  createdAt: set.createdAt.toISOString(),
  updatedAt: set.updatedAt.toISOString(),
});

const caseView = (row: EvalCaseRow): EvalCaseView => ({
  id: row.id,
  evalSetId: row.evalSetId,
  question: row.question,
  history: row.history,
  expectedAnswer: row.expectedAnswer,
  mustInclude: row.mustInclude,
  mustNotInclude: row.mustNotInclude,
  expectedSources: row.expectedSources,
  annotationId: row.annotationId,
  createdAt: row.createdAt.toISOString(),
});

const setNotFound = (id: string) => notFound(`Eval set ${id} not found`);

const setFull = () =>
  new AppError(
    "CONFLICT",
    `An eval set holds at most ${MAX_CASES_PER_SET} cases: delete some, or start another set`,
  );

/**
 * The case an annotation stands for: the customer's message(s) just before the reviewed answer
 * as the question, what came before as history; a `bad` answer's comment is the expectation to
 * meet, a `good` answer is the expectation itself, its sources expected again. Null (with why)
 * when the annotation cannot make a case.
 */
function caseOfAnnotation(
  reviewed: AnnotatedAnswer,
  before: readonly EvalHistoryMessage[],
): { row: Omit<NewEvalCaseRow, "id" | "organizationId" | "evalSetId"> } | null {
  let start = before.length;
  while (start > 0 && before[start - 1]!.from === "human") start -= 1;
  const asked = before.slice(start);
  if (asked.length === 0) return null;
  const expectation =
    reviewed.sentiment === "bad"
      ? { expectedAnswer: reviewed.comment.trim(), expectedSources: [] }
      : {
          expectedAnswer: reviewed.answer,
          expectedSources: [...new Set(reviewed.sources.map((source) => source.source))],
        };
  if (!expectation.expectedAnswer) return null;
  return {
    row: {
      question: asked.map((message) => message.text.trim()).join("\n\n"),
      history: before.slice(Math.max(0, start - HISTORY_MESSAGES), start),
      ...expectation,
      annotationId: reviewed.annotationId,
    },
  };
}

/** Eval sets and their cases (DESIGN.md §14). */
export function createEvalSetService(deps: {
  db: Db;
  evals: EvalRepo;
  agents: { requireAgent(organizationId: string, agentId: string): Promise<{ id: string }> };
}) {
  const { evals } = deps;

  /** The set, when it is the caller's organization's and its key may use the set's agent. */
  async function requireSet(caller: Caller, id: string) {
    const found = await evals.findSet(caller.organizationId, id);
    if (!found) throw setNotFound(id);
    refuseOtherAgent(caller, found.set.agentId);
    return found;
  }

  /** Adds cases in one transaction, within the set's room; the rows inserted. */
  async function addCases(
    caller: Caller,
    setId: string,
    rows: Array<Omit<NewEvalCaseRow, "id" | "organizationId" | "evalSetId">>,
    options: { partial: boolean },
  ): Promise<EvalCaseRow[]> {
    return deps.db.transaction(async (tx) => {
      const locked = await evals.lockSet(tx, caller.organizationId, setId);
      if (!locked) throw setNotFound(setId);
      const room = MAX_CASES_PER_SET - locked.caseCount;
      if (rows.length > room && (!options.partial || room === 0)) throw setFull();
      const now = Date.now();
      return evals.insertCases(
        tx,
        rows.slice(0, room).map((row, index) => ({
          ...row,
          id: newId(),
          organizationId: caller.organizationId,
          evalSetId: setId,
          // One millisecond apart: a set's cases keep the order they were added in.
          createdAt: new Date(now + index),
        })),
      );
    });
  }

  return {
    requireSet,

    async create(caller: Caller, input: EvalSetInput): Promise<EvalSetView> {
      await deps.agents.requireAgent(caller.organizationId, input.agentId);
      refuseOtherAgent(caller, input.agentId);
      const set = await evals.insertSet({
        id: newId(),
        organizationId: caller.organizationId,
        agentId: input.agentId,
        name: input.name,
      });
      return setView({ set, caseCount: 0 });
    },

    async list(caller: Caller, filter: { agentId?: string }): Promise<EvalSetView[]> {
      const rows = await evals.listSets(caller.organizationId, filter.agentId);
      return rows.filter((row) => mayUseAgent(caller, row.set.agentId)).map(setView);
    },

    async get(caller: Caller, id: string): Promise<EvalSetView> {
      return setView(await requireSet(caller, id));
    },

    async remove(caller: Caller, id: string): Promise<void> {
      await requireSet(caller, id);
      if (!(await evals.deleteSet(caller.organizationId, id))) throw setNotFound(id);
    },

    async addCase(caller: Caller, setId: string, input: EvalCaseInput): Promise<EvalCaseView> {
      await requireSet(caller, setId);
      const [row] = await addCases(
        caller,
        setId,
        [{ ...input, expectedAnswer: input.expectedAnswer ?? null }],
        { partial: false },
      );
      return caseView(row!);
    },

    async listCases(caller: Caller, setId: string): Promise<EvalCaseView[]> {
      await requireSet(caller, setId);
      return (await evals.listCases(caller.organizationId, setId)).map(caseView);
    },

    async removeCase(caller: Caller, setId: string, caseId: string): Promise<void> {
      await requireSet(caller, setId);
      if (!(await evals.deleteCase(caller.organizationId, setId, caseId))) {
        throw notFound(`Case ${caseId} not found in eval set ${setId}`);
      }
    },

    /**
     * Cases from the agent's reviewed answers matching the filters, each annotation once per set,
     * up to the set's room. `skipped` counts the matching annotations that made no case: a `bad`
     * one without a comment, an answer with no customer message before it, or no room left.
     */
    async importCases(caller: Caller, setId: string, input: EvalImportInput) {
      const { set, caseCount } = await requireSet(caller, setId);
      const reviewed = await evals.annotatedAnswers(
        caller.organizationId,
        setId,
        set.agentId,
        { sentiment: input.sentiment, status: input.status, tagIds: input.tagIds },
        MAX_CASES_PER_SET,
      );
      const rows: Array<Omit<NewEvalCaseRow, "id" | "organizationId" | "evalSetId">> = [];
      for (const answer of reviewed) {
        const before = await evals.messagesBefore(
          caller.organizationId,
          answer.conversationId,
          answer.answeredAt,
          HISTORY_MESSAGES * 2,
        );
        const made = caseOfAnnotation(answer, before);
        if (made) rows.push(made.row);
      }
      const imported =
        rows.length === 0 || caseCount >= MAX_CASES_PER_SET
          ? []
          : await addCases(caller, setId, rows, { partial: true });
      return {
        imported: imported.length,
        skipped: reviewed.length - imported.length,
        data: imported.map(caseView),
      };
    },
  };
}

export type EvalSetService = ReturnType<typeof createEvalSetService>;
