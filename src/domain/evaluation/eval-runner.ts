import { AppError } from "../../lib/errors.ts";
import type { Logger } from "../../lib/logger.ts";
import {
  type AgentModelName,
  isConcreteModelName,
  PROVIDER_API_KEY_ENV,
} from "../../models/model-catalog.ts";
import { ModelProviderError } from "../../models/model-failure.ts";
import type { ModelRegistry, ResolvedLanguageModel } from "../../models/model-registry.ts";
import type { AgentRow } from "../agents/agent-repo.ts";
import { datastoreIdsOf } from "../agents/agent-tools.ts";
import type { Billing, ReservationRequest } from "../billing/billing-port.ts";
import type { AnswerPipeline, AnswerTurn } from "../query/answer-pipeline.ts";
import { asksForHuman } from "../query/human-request.ts";
import type { MeteredCall } from "../query/model-calls.ts";
import { type KnowledgeLookup, searchableKnowledge, toSource } from "../query/query-knowledge.ts";
import { turnReservation } from "../query/usage-bound.ts";
import { JUDGE_PASS_SCORE, offlineChecks } from "./eval-checks.ts";
import {
  JUDGE_INSTRUCTIONS,
  JUDGE_MAX_OUTPUT_TOKENS,
  judgeAnswer,
  judgePrompt,
} from "./eval-judge.ts";
import type { CaseOutcome, EvalRepo, EvalResultRow, EvalRunRow } from "./eval-repo.ts";

/** What a run's cases are charged as (DESIGN.md §14). */
const EVALUATION_FEATURE = "evaluation";

/** The answer-affecting fields of one version of an agent (the agents module keeps them). */
export type AgentVersionLookup = {
  find(
    organizationId: string,
    agentId: string,
    version: number,
  ): Promise<{ version: number; fields: Partial<AgentRow> } | null>;
};

export type EvalRunnerDeps = {
  runs: EvalRepo;
  agents: { requireAgent(organizationId: string, agentId: string): Promise<AgentRow> };
  versions: AgentVersionLookup;
  answers: AnswerPipeline;
  knowledge: KnowledgeLookup | null;
  billing: Pick<Billing, "reserve" | "release" | "charge">;
  models: Pick<ModelRegistry, "resolveLanguageModel" | "catalog">;
  logger: Pick<Logger, "error" | "warn">;
};

/** The run stops: the organization (or the key's budget) cannot pay for the next case. */
class OutOfCredits extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

const isUsageLimit = (error: unknown): error is AppError =>
  error instanceof AppError && error.type === "USAGE_LIMIT";

/** The agent a run replays: the version asked for (or as it is now), then the run's overrides. */
async function agentOfRun(
  deps: Pick<EvalRunnerDeps, "agents" | "versions">,
  run: Pick<EvalRunRow, "organizationId" | "agentId" | "agentVersion" | "overrides">,
): Promise<AgentRow> {
  const current = await deps.agents.requireAgent(run.organizationId, run.agentId);
  let agent: AgentRow = { ...current };
  if (run.agentVersion !== null) {
    const version = await deps.versions.find(run.organizationId, run.agentId, run.agentVersion);
    if (!version) throw new AppError("NOT_FOUND", `Agent version ${run.agentVersion} not found`);
    agent = { ...agent, ...version.fields };
  }
  const { overrides } = run;
  if (overrides.systemPrompt) agent.systemPrompt = overrides.systemPrompt;
  if (overrides.modelName !== undefined) agent.modelName = overrides.modelName;
  if (overrides.temperature !== undefined) agent.temperature = overrides.temperature;
  if (overrides.retrievalEvaluationConfig !== undefined) {
    agent.retrievalEvaluationConfig = overrides.retrievalEvaluationConfig;
  }
  return agent;
}

/** Why a judge cannot score anything: no provider key for its model. */
function judgeUnavailable(models: Pick<ModelRegistry, "catalog">, modelName: string): string {
  const provider = isConcreteModelName(modelName) ? models.catalog[modelName].provider : null;
  const hint = provider ? ` (set ${PROVIDER_API_KEY_ENV[provider]}, or LLM_BASE_URL)` : "";
  return `The judge model ${modelName} has no provider credentials${hint}: expectedAnswer was not judged`;
}

/**
 * Works one eval run (the eval.run job): replays each case not done yet through the answer
 * pipeline, checks the answer, records the case. Each case is recorded once, so a retried run
 * resumes where the last one stopped. Nothing is stored as a conversation.
 */
export function createEvalRunner(deps: EvalRunnerDeps) {
  const { answers, billing } = deps;
  const settings = answers.settings;

  async function reserve(request: ReservationRequest) {
    try {
      return await billing.reserve(request);
    } catch (error) {
      if (isUsageLimit(error)) throw new OutOfCredits(error.message);
      throw error;
    }
  }

  /**
   * Charges one model call of a case as feature evaluation (settling `reservationId` when
   * given); the credits it cost, 0 when charging failed.
   */
  async function charge(
    run: EvalRunRow,
    caseId: string,
    call: Pick<MeteredCall, "resolved" | "inputTokens" | "outputTokens" | "usageEstimated"> & {
      step: string;
    },
    reservationId?: string,
  ): Promise<number> {
    try {
      const charged = await billing.charge({
        organizationId: run.organizationId,
        agentId: run.agentId,
        apiKeyId: run.apiKeyId,
        feature: EVALUATION_FEATURE,
        provider: call.resolved.provider,
        modelName: call.resolved.providerModelId,
        inputTokens: call.inputTokens,
        outputTokens: call.outputTokens,
        ...(reservationId ? { reservationId } : {}),
        metadata: {
          evalRunId: run.id,
          caseId,
          step: call.step,
          modelName: call.resolved.modelName,
          ...(call.usageEstimated ? { usageEstimated: true } : {}),
        },
      });
      return charged.creditsCharged;
    } catch (error) {
      deps.logger.error({ err: error, evalRunId: run.id }, "charging an evaluation failed");
      return 0;
    }
  }

  async function answer(
    run: EvalRunRow,
    agent: AgentRow,
    result: EvalResultRow,
    signal: AbortSignal,
  ) {
    const { question, expectations } = result;
    const reservation = await reserve({
      ...answers.reservation({
        organizationId: run.organizationId,
        agent,
        overrides: {},
        knownTexts: [question, ...expectations.history.map((message) => message.text)],
        hasAttachments: false,
        feature: EVALUATION_FEATURE,
      }),
      apiKeyId: run.apiKeyId,
    });
    let turn: AnswerTurn;
    try {
      const prepared = await answers.prepare({
        agent,
        overrides: {},
        query: question,
        humanRequested: asksForHuman(question),
        knowledge: searchableKnowledge(deps.knowledge, {
          organizationId: run.organizationId,
          datastoreIds: datastoreIdsOf(agent.tools),
          query: question,
        }),
        history: expectations.history,
        attachmentUrls: [],
      });
      turn = await prepared.run({ signal });
    } catch (error) {
      await billing.release(reservation).catch(() => {});
      throw error;
    }
    let credits = await charge(run, result.caseId, { ...turn, step: "answer" }, reservation.id);
    for (const call of turn.calls) credits += await charge(run, result.caseId, call);
    return { turn, credits };
  }

  async function judge(
    run: EvalRunRow,
    result: EvalResultRow,
    judgeModel: ResolvedLanguageModel,
    text: string,
    signal: AbortSignal,
  ) {
    const input = {
      question: result.question,
      expected: result.expectations.expectedAnswer!,
      answer: text,
    };
    const reservation = await reserve({
      ...turnReservation(deps.models, {
        organizationId: run.organizationId,
        feature: EVALUATION_FEATURE,
        modelName: judgeModel.requestedModelName,
        promptChars: JUDGE_INSTRUCTIONS.length + judgePrompt(input).length,
        maxOutputTokens: JUDGE_MAX_OUTPUT_TOKENS,
        holdMs: settings.reservationHoldMs,
      }),
      // A key's monthly budget holds the judge's credits too, as it is charged with them.
      apiKeyId: run.apiKeyId,
    });
    try {
      const verdict = await judgeAnswer(judgeModel, input, {
        timeoutMs: settings.modelTimeoutMs,
        maxRetries: settings.modelMaxRetries,
        signal,
      });
      const credits = await charge(
        run,
        result.caseId,
        { ...verdict, resolved: judgeModel, step: "judge" },
        reservation.id,
      );
      return { verdict, credits };
    } catch (error) {
      await billing.release(reservation).catch(() => {});
      throw error;
    }
  }

  /**
   * One case, answered and checked; OutOfCredits when its answer could not be paid for. A judge
   * that cannot be paid for leaves the case answered and unjudged, and says the run must stop
   * (`stop`): the answer was charged, so it is recorded.
   */
  async function runCase(
    run: EvalRunRow,
    agent: AgentRow,
    judgeModel: ResolvedLanguageModel | null,
    result: EvalResultRow,
    signal: AbortSignal,
  ): Promise<{ outcome: CaseOutcome; stop?: string }> {
    const startedAt = performance.now();
    let answered: Awaited<ReturnType<typeof answer>>;
    try {
      answered = await answer(run, agent, result, signal);
    } catch (error) {
      if (!(error instanceof ModelProviderError) || signal.aborted) throw error;
      return {
        outcome: {
          answer: null,
          sources: [],
          passed: false,
          checks: [{ name: "answered", passed: false, detail: error.message }],
          judge: null,
          latencyMs: Math.round(performance.now() - startedAt),
          credits: 0,
        },
      };
    }
    const latencyMs = Math.round(performance.now() - startedAt);
    const { turn } = answered;
    let { credits } = answered;
    const sources = turn.sources.map(toSource);
    const offline = turn.resolved.offline;
    const checks = [
      {
        name: "answered",
        passed: !offline && turn.text.trim() !== "",
        detail: offline
          ? `No provider key is configured for ${turn.resolved.requestedModelName}: the offline responder answered`
          : turn.text.trim() === ""
            ? "The answer is empty"
            : `Answered by ${turn.resolved.modelName}`,
      },
      ...offlineChecks(result.expectations, { text: turn.text, sources }),
    ];
    let judgement: CaseOutcome["judge"] = null;
    let stop: string | undefined;
    const expected = result.expectations.expectedAnswer;
    if (expected && run.judgeModel) {
      if (!judgeModel || judgeModel.offline) {
        checks.push({
          name: "expectedAnswer",
          passed: false,
          detail: judgeUnavailable(deps.models, run.judgeModel),
        });
      } else {
        try {
          const judged = await judge(run, result, judgeModel, turn.text, signal);
          credits += judged.credits;
          judgement = { score: judged.verdict.score, reasoning: judged.verdict.reasoning };
          checks.push({
            name: "expectedAnswer",
            passed: judged.verdict.score >= JUDGE_PASS_SCORE,
            detail: `Judged ${judged.verdict.score} of 5 by ${run.judgeModel} (passes at ${JUDGE_PASS_SCORE})`,
          });
        } catch (error) {
          if (error instanceof OutOfCredits) {
            stop = error.reason;
            checks.push({ name: "expectedAnswer", passed: false, detail: `Not judged: ${stop}` });
          } else if (error instanceof ModelProviderError && !signal.aborted) {
            checks.push({
              name: "expectedAnswer",
              passed: false,
              detail: `The judge failed: ${error.message}`,
            });
          } else {
            throw error;
          }
        }
      }
    }
    return {
      outcome: {
        answer: turn.text,
        sources,
        passed: checks.every((check) => check.passed),
        checks,
        judge: judgement,
        latencyMs,
        credits,
      },
      ...(stop ? { stop } : {}),
    };
  }

  return {
    async run(organizationId: string, runId: string, signal: AbortSignal): Promise<void> {
      const run = await deps.runs.startRun(organizationId, runId);
      if (!run) return;
      let agent: AgentRow;
      try {
        agent = await agentOfRun(deps, run);
      } catch (error) {
        if (!(error instanceof AppError) || error.type !== "NOT_FOUND") throw error;
        await deps.runs.endRun(organizationId, runId, "failed", error.message);
        return;
      }
      const judgeModel = run.judgeModel
        ? deps.models.resolveLanguageModel(run.judgeModel as AgentModelName)
        : null;
      const pending = await deps.runs.pendingResults(runId);
      for (const result of pending) {
        signal.throwIfAborted();
        // Each model call listens to the signal it is given: one per case, so that the run's
        // signal does not gather a listener per call for as long as the run lasts.
        const caseAbort = new AbortController();
        const abortCase = () => caseAbort.abort(signal.reason);
        signal.addEventListener("abort", abortCase, { once: true });
        let done: Awaited<ReturnType<typeof runCase>>;
        try {
          done = await runCase(run, agent, judgeModel, result, caseAbort.signal);
        } catch (error) {
          if (!(error instanceof OutOfCredits)) throw error;
          await deps.runs.endRun(organizationId, runId, "failed", `Stopped: ${error.reason}`);
          return;
        } finally {
          signal.removeEventListener("abort", abortCase);
        }
        await deps.runs.finishCase(runId, result.caseId, done.outcome);
        if (done.stop) {
          await deps.runs.endRun(organizationId, runId, "failed", `Stopped: ${done.stop}`);
          return;
        }
      }
      await deps.runs.endRun(organizationId, runId, "completed", null);
    },

    /** Ends a run whose job gave up (its runs kept dying): failed, its cases done so far kept. */
    async abandon(organizationId: string, runId: string): Promise<void> {
      await deps.runs.endRun(
        organizationId,
        runId,
        "failed",
        "The run stopped without finishing too many times (see the service's log)",
      );
    },
  };
}
