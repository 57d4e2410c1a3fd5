import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { agents } from "./agents.ts";
import { annotations } from "./annotations.ts";
import { organizations } from "./organizations.ts";

/** A message of a case's conversation before its question, as the spec's messages say who wrote. */
export type EvalHistoryMessage = { from: "human" | "agent"; text: string };

/** What a case expects of the answer (DESIGN.md §14); empty lists check nothing. */
export type EvalExpectations = {
  history: EvalHistoryMessage[];
  expectedAnswer: string | null;
  mustInclude: string[];
  mustNotInclude: string[];
  expectedSources: string[];
};

/** One check of one case's answer. */
export type EvalCheck = { name: string; passed: boolean; detail: string };

/** The judge's verdict on an answer against the case's expectedAnswer. */
export type EvalJudgement = { score: number; reasoning: string };

/** What a run may change of the agent for every case (DESIGN.md §14). */
export type EvalOverrides = {
  systemPrompt?: string;
  modelName?: string;
  temperature?: number;
  retrievalEvaluationConfig?: Record<string, unknown>;
};

/** A regression suite of one agent: its cases are replayed by runs. */
export const evalSets = pgTable(
  "eval_sets",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    agentId: text("agent_id")
      .notNull()
      .references(() => agents.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("eval_sets_organization_idx").on(table.organizationId, table.createdAt)],
);

export const evalCases = pgTable(
  "eval_cases",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    evalSetId: text("eval_set_id")
      .notNull()
      .references(() => evalSets.id, { onDelete: "cascade" }),
    question: text("question").notNull(),
    history: jsonb("history").$type<EvalHistoryMessage[]>().notNull().default([]),
    expectedAnswer: text("expected_answer"),
    mustInclude: jsonb("must_include").$type<string[]>().notNull().default([]),
    mustNotInclude: jsonb("must_not_include").$type<string[]>().notNull().default([]),
    expectedSources: jsonb("expected_sources").$type<string[]>().notNull().default([]),
    /** The annotation the case was imported from: a set imports each one once. */
    annotationId: text("annotation_id").references(() => annotations.id, {
      onDelete: "set null",
    }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("eval_cases_set_idx").on(table.evalSetId, table.createdAt, table.id),
    uniqueIndex("eval_cases_annotation_idx").on(table.evalSetId, table.annotationId),
  ],
);

export const EVAL_RUN_STATUSES = ["queued", "running", "completed", "failed"] as const;
export type EvalRunStatus = (typeof EVAL_RUN_STATUSES)[number];

/** One replay of a set's cases, worked by the eval.run job. */
export const evalRuns = pgTable(
  "eval_runs",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    evalSetId: text("eval_set_id")
      .notNull()
      .references(() => evalSets.id, { onDelete: "cascade" }),
    agentId: text("agent_id")
      .notNull()
      .references(() => agents.id, { onDelete: "cascade" }),
    /** The agent version replayed; null is the agent as it is when each case runs. */
    agentVersion: integer("agent_version"),
    overrides: jsonb("overrides").$type<EvalOverrides>().notNull().default({}),
    judgeModel: text("judge_model"),
    status: text("status", { enum: EVAL_RUN_STATUSES }).notNull().default("queued"),
    /** Why a failed run stopped. */
    error: text("error"),
    /** The key the run was started with: its charges count in that key's budget. */
    apiKeyId: text("api_key_id"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp("started_at", { withTimezone: true }),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
  },
  (table) => [
    index("eval_runs_set_idx").on(table.evalSetId, table.createdAt),
    check(
      "eval_runs_status_check",
      sql`${table.status} in ('queued', 'running', 'completed', 'failed')`,
    ),
  ],
);

/**
 * One case of one run: the case as it was when the run was started (a case changed or deleted
 * later changes no run), then its answer and checks once done.
 */
export const evalResults = pgTable(
  "eval_results",
  {
    runId: text("run_id")
      .notNull()
      .references(() => evalRuns.id, { onDelete: "cascade" }),
    /** Not a foreign key: a run keeps the results of cases deleted since. */
    caseId: text("case_id").notNull(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    question: text("question").notNull(),
    expectations: jsonb("expectations").$type<EvalExpectations>().notNull(),
    done: boolean("done").notNull().default(false),
    answer: text("answer"),
    sources: jsonb("sources").$type<Array<{ source: string; chunk: string }>>(),
    passed: boolean("passed"),
    checks: jsonb("checks").$type<EvalCheck[]>(),
    judge: jsonb("judge").$type<EvalJudgement>(),
    latencyMs: integer("latency_ms"),
    credits: doublePrecision("credits"),
  },
  (table) => [
    primaryKey({ columns: [table.runId, table.caseId] }),
    index("eval_results_run_idx").on(table.runId, table.position),
  ],
);
