import type { Db } from "../../db/client.ts";
import type { EvalOverrides } from "../../db/schema/index.ts";
import type { JobQueue } from "../../jobs/job-queue.ts";
import { invalid, notFound } from "../../lib/errors.ts";
import { newId } from "../../lib/ids.ts";
import { type Caller, mayUseAgent, refuseOtherAgent } from "../caller.ts";
import { compareCases, type EvalSummary, type SummaryCounts, summaryOf } from "./eval-checks.ts";
import type { EvalRepo, EvalResultRow, EvalRunRow } from "./eval-repo.ts";
import type { EvalRunInput } from "./eval-request.ts";
import type { AgentVersionLookup } from "./eval-runner.ts";
import type { EvalSetService } from "./eval-set-service.ts";

/** Runs GET /api/eval-runs lists at most, newest first. */
const RUNS_LISTED = 100;

export type EvalResultView = {
  caseId: string;
  question: string;
  answer: string | null;
  sources: Array<{ source: string; chunk: string }>;
  passed: boolean;
  checks: Array<{ name: string; passed: boolean; detail: string }>;
  judge: { score: number; reasoning: string } | null;
  latencyMs: number | null;
  credits: number;
};

export type EvalRunView = {
  id: string;
  evalSetId: string;
  agentId: string;
  agentVersion: number | null;
  overrides: EvalOverrides;
  judgeModel: string | null;
  status: EvalRunRow["status"];
  error: string | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  summary: EvalSummary;
};

const resultView = (row: EvalResultRow): EvalResultView => ({
  caseId: row.caseId,
  question: row.question,
  answer: row.answer,
  sources: row.sources ?? [],
  passed: row.passed === true,
  checks: row.checks ?? [],
  judge: row.judge,
  latencyMs: row.latencyMs,
  credits: row.credits ?? 0,
});

const NO_RESULTS: SummaryCounts = {
  cases: 0,
  done: 0,
  passed: 0,
  p50LatencyMs: null,
  credits: 0,
  expectedSources: 0,
  citedSources: 0,
};

function runView(run: EvalRunRow, counts: SummaryCounts = NO_RESULTS): EvalRunView {
  return {
    id: run.id,
    evalSetId: run.evalSetId,
    agentId: run.agentId,
    agentVersion: run.agentVersion,
    overrides: run.overrides,
    judgeModel: run.judgeModel,
    status: run.status,
    error: run.error,
    createdAt: run.createdAt.toISOString(),
    startedAt: run.startedAt?.toISOString() ?? null,
    finishedAt: run.finishedAt?.toISOString() ?? null,
    summary: summaryOf(counts),
  };
}

const runNotFound = (id: string) => notFound(`Eval run ${id} not found`);

/** Starting eval runs, and reading them (DESIGN.md §14). */
export function createEvalRunService(deps: {
  db: Db;
  evals: EvalRepo;
  sets: Pick<EvalSetService, "requireSet">;
  versions: AgentVersionLookup;
  jobs: Pick<JobQueue, "send">;
}) {
  const { evals } = deps;

  async function requireRun(caller: Caller, id: string): Promise<EvalRunRow> {
    const run = await evals.findRun(caller.organizationId, id);
    if (!run) throw runNotFound(id);
    refuseOtherAgent(caller, run.agentId);
    return run;
  }

  return {
    async start(caller: Caller, input: EvalRunInput) {
      const { set, caseCount } = await deps.sets.requireSet(caller, input.evalSetId);
      if (caseCount === 0) {
        throw invalid(`Eval set ${set.id} has no cases: add cases (or import them) first`, [
          { path: "body.evalSetId", message: "names a set without cases" },
        ]);
      }
      if (input.agentVersion !== undefined) {
        const version = await deps.versions.find(
          caller.organizationId,
          set.agentId,
          input.agentVersion,
        );
        if (!version) {
          throw invalid(`Agent ${set.agentId} has no version ${input.agentVersion}`, [
            { path: "body.agentVersion", message: "is not a version of the set's agent" },
          ]);
        }
      }
      const id = newId();
      const created = await deps.db.transaction(async (tx) => {
        const inserted = await evals.insertRun(tx, {
          id,
          organizationId: caller.organizationId,
          evalSetId: set.id,
          agentId: set.agentId,
          agentVersion: input.agentVersion ?? null,
          overrides: input.overrides ?? {},
          judgeModel: input.judgeModel ?? null,
          apiKeyId: caller.apiKeyId,
        });
        // Cases deleted since the count above: the run would have nothing to do.
        if (inserted.cases === 0) {
          throw invalid(`Eval set ${set.id} has no cases: add cases (or import them) first`);
        }
        await deps.jobs.send(
          "eval.run",
          { organizationId: caller.organizationId, runId: id },
          { tx },
        );
        return inserted;
      });
      return { id, status: "queued" as const, cases: created.cases };
    },

    /** The run with its summary, and the results of the cases done so far unless told not to. */
    async get(caller: Caller, id: string, options: { withResults: boolean }) {
      const run = await requireRun(caller, id);
      const [summaries, results] = await Promise.all([
        evals.summaries([run.id]),
        options.withResults ? evals.results([run.id], { doneOnly: true }) : [],
      ]);
      return { ...runView(run, summaries.get(run.id)), results: results.map(resultView) };
    },

    async list(caller: Caller, filter: { evalSetId?: string }): Promise<EvalRunView[]> {
      if (filter.evalSetId !== undefined) await deps.sets.requireSet(caller, filter.evalSetId);
      const runs = (
        await evals.listRuns(caller.organizationId, filter.evalSetId, RUNS_LISTED)
      ).filter((run) => mayUseAgent(caller, run.agentId));
      const summaries = await evals.summaries(runs.map((run) => run.id));
      return runs.map((run) => runView(run, summaries.get(run.id)));
    },

    /** The run's cases beside a baseline run's of the same set: fixed, regressed, unchanged. */
    async compare(caller: Caller, id: string, baselineId: string) {
      const [run, baseline] = [await requireRun(caller, id), await requireRun(caller, baselineId)];
      if (run.evalSetId !== baseline.evalSetId) {
        throw invalid("A run compares with a run of the same eval set", [
          { path: "querystring.baseline", message: "is a run of another eval set" },
        ]);
      }
      const [outcomes, summaries] = await Promise.all([
        evals.outcomes([run.id, baseline.id]),
        evals.summaries([run.id, baseline.id]),
      ]);
      const of = (runId: string) => outcomes.filter((row) => row.runId === runId);
      const passRateOf = (runId: string) => runView(run, summaries.get(runId)).summary.passRate;
      return {
        runId: run.id,
        baselineRunId: baseline.id,
        status: run.status,
        baselineStatus: baseline.status,
        passRate: passRateOf(run.id),
        baselinePassRate: passRateOf(baseline.id),
        ...compareCases(of(baseline.id), of(run.id)),
      };
    },
  };
}

export type EvalRunService = ReturnType<typeof createEvalRunService>;
