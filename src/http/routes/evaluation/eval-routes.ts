import { z } from "zod";
import {
  evalCaseBody,
  evalImportBody,
  evalRunBody,
  evalSetBody,
} from "../../../domain/evaluation/eval-request.ts";
import type { EvalRunService } from "../../../domain/evaluation/eval-run-service.ts";
import type { EvalSetService } from "../../../domain/evaluation/eval-set-service.ts";
import type { App } from "../../app-types.ts";
import { callerOf } from "../../plugins/auth.ts";

export type EvalRouteDeps = { evalSets: EvalSetService; evalRuns: EvalRunService };

const id = z.string().min(1).max(200);
const setParams = z.object({ id });
const caseParams = z.object({ id, caseId: id });

const setSchema = z.object({
  id: z.string(),
  name: z.string(),
  agentId: z.string(),
  caseCount: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

const caseSchema = z.object({
  id: z.string(),
  evalSetId: z.string(),
  question: z.string(),
  history: z.array(z.object({ from: z.enum(["human", "agent"]), text: z.string() })),
  expectedAnswer: z.string().nullable(),
  mustInclude: z.array(z.string()),
  mustNotInclude: z.array(z.string()),
  expectedSources: z.array(z.string()),
  annotationId: z.string().nullable().describe("The annotation it was imported from"),
  createdAt: z.string(),
});

const checkSchema = z.object({ name: z.string(), passed: z.boolean(), detail: z.string() });

const summarySchema = z.object({
  cases: z.number(),
  done: z.number().describe("Cases answered and checked so far: the run's progress"),
  passed: z.number(),
  failed: z.number(),
  passRate: z.number().describe("Passed cases of all the run's cases, 0 to 1"),
  sourceHitRate: z
    .number()
    .nullable()
    .describe("Expected sources the answers cited, of all expected, 0 to 1; null when none"),
  p50LatencyMs: z.number().nullable(),
  credits: z.number(),
});

const runSchema = z.object({
  id: z.string(),
  evalSetId: z.string(),
  agentId: z.string(),
  agentVersion: z.number().nullable(),
  overrides: z.record(z.string(), z.unknown()),
  judgeModel: z.string().nullable(),
  status: z.enum(["queued", "running", "completed", "failed"]),
  error: z.string().nullable().describe("Why a failed run stopped"),
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  summary: summarySchema,
});

const resultSchema = z.object({
  caseId: z.string(),
  question: z.string(),
  answer: z.string().nullable(),
  sources: z.array(z.object({ source: z.string(), chunk: z.string() })),
  passed: z.boolean(),
  checks: z.array(checkSchema),
  judge: z.object({ score: z.number(), reasoning: z.string() }).nullable(),
  latencyMs: z.number().nullable(),
  credits: z.number(),
});

const comparisonSchema = z.object({
  runId: z.string(),
  baselineRunId: z.string(),
  status: runSchema.shape.status,
  baselineStatus: runSchema.shape.status,
  passRate: z.number(),
  baselinePassRate: z.number(),
  fixed: z.number(),
  regressed: z.number(),
  unchanged: z.number(),
  added: z.number(),
  removed: z.number(),
  cases: z.array(
    z.object({
      caseId: z.string(),
      question: z.string(),
      baselinePassed: z.boolean().nullable(),
      passed: z.boolean().nullable(),
      change: z.enum(["fixed", "regressed", "unchanged", "added", "removed"]),
    }),
  ),
});

const tags = ["evaluation"];
const READ = { auth: "key", permission: "agents:read" } as const;
const WRITE = { auth: "key", permission: "agents:write" } as const;

/** Eval sets, their cases and runs (DESIGN.md §14, docs/evaluation.md). */
export function registerEvalRoutes(app: App, deps: EvalRouteDeps): void {
  app.post(
    "/api/eval-sets",
    {
      config: WRITE,
      schema: {
        operationId: "createEvalSet",
        tags,
        "x-extension": true,
        summary: "Create an eval set: the regression cases of one agent",
        body: evalSetBody,
        response: { 201: setSchema },
        errors: { 404: "the agent is not one of the organization's" },
      },
    },
    async (request, reply) => {
      const created = await deps.evalSets.create(callerOf(request), request.body);
      reply.code(201);
      return created;
    },
  );

  app.get(
    "/api/eval-sets",
    {
      config: READ,
      schema: {
        operationId: "listEvalSets",
        tags,
        "x-extension": true,
        summary: "The organization's eval sets, newest first",
        querystring: z.object({ agentId: id.optional() }),
        response: { 200: z.object({ data: z.array(setSchema) }) },
      },
    },
    async (request) => ({
      data: await deps.evalSets.list(callerOf(request), request.query),
    }),
  );

  app.get(
    "/api/eval-sets/:id",
    {
      config: READ,
      schema: {
        operationId: "getEvalSet",
        tags,
        "x-extension": true,
        summary: "One eval set",
        params: setParams,
        response: { 200: setSchema },
      },
    },
    async (request) => deps.evalSets.get(callerOf(request), request.params.id),
  );

  app.delete(
    "/api/eval-sets/:id",
    {
      config: WRITE,
      schema: {
        operationId: "deleteEvalSet",
        tags,
        "x-extension": true,
        summary: "Delete an eval set with its cases and runs",
        params: setParams,
        response: { 204: z.null().describe("Deleted") },
      },
    },
    async (request, reply) => {
      await deps.evalSets.remove(callerOf(request), request.params.id);
      reply.code(204);
      return null;
    },
  );

  app.post(
    "/api/eval-sets/:id/cases",
    {
      config: WRITE,
      schema: {
        operationId: "createEvalCase",
        tags,
        "x-extension": true,
        summary: "Add a case: a question and what its answer must (not) say or cite",
        params: setParams,
        body: evalCaseBody,
        response: { 201: caseSchema },
        errors: { 409: "the set already holds 1,000 cases" },
      },
    },
    async (request, reply) => {
      const created = await deps.evalSets.addCase(
        callerOf(request),
        request.params.id,
        request.body,
      );
      reply.code(201);
      return created;
    },
  );

  app.get(
    "/api/eval-sets/:id/cases",
    {
      config: READ,
      schema: {
        operationId: "listEvalCases",
        tags,
        "x-extension": true,
        summary: "The set's cases, in the order they were added",
        params: setParams,
        response: { 200: z.object({ data: z.array(caseSchema) }) },
      },
    },
    async (request) => ({
      data: await deps.evalSets.listCases(callerOf(request), request.params.id),
    }),
  );

  app.delete(
    "/api/eval-sets/:id/cases/:caseId",
    {
      config: WRITE,
      schema: {
        operationId: "deleteEvalCase",
        tags,
        "x-extension": true,
        summary: "Delete a case (runs that replayed it keep its result)",
        params: caseParams,
        response: { 204: z.null().describe("Deleted") },
      },
    },
    async (request, reply) => {
      await deps.evalSets.removeCase(callerOf(request), request.params.id, request.params.caseId);
      reply.code(204);
      return null;
    },
  );

  app.post(
    "/api/eval-sets/:id/import",
    {
      config: WRITE,
      schema: {
        operationId: "importEvalCases",
        tags,
        "x-extension": true,
        summary: "Make cases of the agent's annotated answers",
        description:
          "A `bad` annotation's comment becomes the case's expectedAnswer; a `good` one pins " +
          "the approved answer as expectedAnswer and its sources as expectedSources. The " +
          "question is the customer's message before the answer, the history what came before. " +
          "An annotation is imported into a set once; `skipped` counts those that made no case " +
          "(a bad one without comment, no customer message, no room left in the set).",
        params: setParams,
        body: evalImportBody,
        response: {
          200: z.object({
            imported: z.number(),
            skipped: z.number(),
            data: z.array(caseSchema),
          }),
        },
      },
    },
    async (request) =>
      deps.evalSets.importCases(callerOf(request), request.params.id, request.body),
  );

  app.post(
    "/api/eval-runs",
    {
      config: { auth: "key", permission: "query" },
      schema: {
        operationId: "startEvalRun",
        tags,
        "x-extension": true,
        summary: "Replay an eval set's cases and check the answers, in the background",
        description:
          "Each case is answered through the agent's answer pipeline (the version and " +
          "overrides asked for), never stored as a conversation, charged as feature " +
          "`evaluation`. Poll GET /api/eval-runs/{id} for progress and results.",
        body: evalRunBody,
        response: {
          202: z.object({
            id: z.string(),
            status: z.literal("queued"),
            cases: z.number().describe("Cases the run will replay"),
          }),
        },
        errors: {
          400: "the set has no cases, the version does not exist, or a model is unknown",
          404: "the eval set is not one of the organization's",
        },
      },
    },
    async (request, reply) => {
      const started = await deps.evalRuns.start(callerOf(request), request.body);
      reply.code(202);
      return started;
    },
  );

  app.get(
    "/api/eval-runs",
    {
      config: READ,
      schema: {
        operationId: "listEvalRuns",
        tags,
        "x-extension": true,
        summary: "The latest 100 runs, newest first, with their summaries",
        querystring: z.object({ evalSetId: id.optional() }),
        response: { 200: z.object({ data: z.array(runSchema) }) },
      },
    },
    async (request) => ({
      data: await deps.evalRuns.list(callerOf(request), request.query),
    }),
  );

  app.get(
    "/api/eval-runs/:id",
    {
      config: READ,
      schema: {
        operationId: "getEvalRun",
        tags,
        "x-extension": true,
        summary: "A run: its status, summary and the results of the cases done so far",
        params: setParams,
        querystring: z.object({
          results: z
            .enum(["true", "false"])
            .default("true")
            .transform((value) => value === "true")
            .describe("false leaves the results out: polling for progress reads the summary only"),
        }),
        response: { 200: runSchema.extend({ results: z.array(resultSchema) }) },
      },
    },
    async (request) =>
      deps.evalRuns.get(callerOf(request), request.params.id, {
        withResults: request.query.results,
      }),
  );

  app.get(
    "/api/eval-runs/:id/comparison",
    {
      config: READ,
      schema: {
        operationId: "compareEvalRuns",
        tags,
        "x-extension": true,
        summary: "The run beside an earlier run of the same set, case by case",
        params: setParams,
        querystring: z.object({ baseline: id.describe("The run to compare with") }),
        response: { 200: comparisonSchema },
        errors: { 400: "the baseline is a run of another eval set" },
      },
    },
    async (request) =>
      deps.evalRuns.compare(callerOf(request), request.params.id, request.query.baseline),
  );
}
