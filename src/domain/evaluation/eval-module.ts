import type { Db } from "../../db/client.ts";
import type { JobQueue } from "../../jobs/job-queue.ts";
import { createEvalRepo } from "./eval-repo.ts";
import { createEvalRunService } from "./eval-run-service.ts";
import { createEvalRunner, type EvalRunnerDeps } from "./eval-runner.ts";
import { createEvalSetService } from "./eval-set-service.ts";

/** Evaluation (DESIGN.md §14): eval sets and their cases, runs, and the job that works them. */
export function createEvalModule(
  deps: Omit<EvalRunnerDeps, "runs"> & { db: Db; jobs: Pick<JobQueue, "send"> },
) {
  const evals = createEvalRepo(deps.db);
  const evalSets = createEvalSetService({ db: deps.db, evals, agents: deps.agents });
  return {
    evalSets,
    evalRuns: createEvalRunService({
      db: deps.db,
      evals,
      sets: evalSets,
      versions: deps.versions,
      jobs: deps.jobs,
    }),
    evalRunner: createEvalRunner({ ...deps, runs: evals }),
  };
}
