import type { EvalCheck, EvalExpectations } from "../../db/schema/index.ts";

/** A judge score at or above this (of 5) passes the expectedAnswer check (docs/evaluation.md). */
export const JUDGE_PASS_SCORE = 4;

/** Text compared as a reader would: case, accents' composition and runs of spaces ignored. */
const comparable = (text: string) => text.normalize("NFKC").toLowerCase().replace(/\s+/g, " ");

const quoted = (phrases: readonly string[]) => phrases.map((phrase) => `"${phrase}"`).join(", ");

/**
 * The checks made without a model: `mustInclude`, `mustNotInclude` and `expectedSources`, each
 * one check naming what it missed. Assertions a case does not have make no check.
 */
export function offlineChecks(
  expectations: EvalExpectations,
  answer: { text: string; sources: ReadonlyArray<{ source: string }> },
): EvalCheck[] {
  const checks: EvalCheck[] = [];
  const text = comparable(answer.text);
  if (expectations.mustInclude.length > 0) {
    const missing = expectations.mustInclude.filter((phrase) => !text.includes(comparable(phrase)));
    checks.push({
      name: "mustInclude",
      passed: missing.length === 0,
      detail:
        missing.length === 0
          ? `Contains all ${expectations.mustInclude.length} phrases`
          : `Missing ${quoted(missing)}`,
    });
  }
  if (expectations.mustNotInclude.length > 0) {
    const found = expectations.mustNotInclude.filter((phrase) => text.includes(comparable(phrase)));
    checks.push({
      name: "mustNotInclude",
      passed: found.length === 0,
      detail:
        found.length === 0
          ? `Contains none of the ${expectations.mustNotInclude.length} phrases`
          : `Contains ${quoted(found)}`,
    });
  }
  if (expectations.expectedSources.length > 0) {
    const cited = new Set(answer.sources.map((source) => source.source));
    const missing = expectations.expectedSources.filter((source) => !cited.has(source));
    checks.push({
      name: "expectedSources",
      passed: missing.length === 0,
      detail:
        missing.length === 0
          ? `Cites all ${expectations.expectedSources.length} expected sources`
          : `Does not cite ${quoted(missing)}${cited.size === 0 ? " (no sources)" : ""}`,
    });
  }
  return checks;
}

export type EvalSummary = {
  cases: number;
  /** Cases with an outcome so far (all of them once the run is over). */
  done: number;
  passed: number;
  failed: number;
  /** Passed cases of all the run's cases, 0 to 1 (a case not done is not passed). */
  passRate: number;
  /** Expected sources cited of all expected, 0 to 1; null when no case expects any. */
  sourceHitRate: number | null;
  p50LatencyMs: number | null;
  credits: number;
};

/** A run's results counted by the database (eval-repo.ts, `summaries`). */
export type SummaryCounts = {
  cases: number;
  done: number;
  passed: number;
  /** The lower median of the done cases' latencies. */
  p50LatencyMs: number | null;
  credits: number;
  /** Expected sources of the done cases, and how many of them their answers cited. */
  expectedSources: number;
  citedSources: number;
};

const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;

export function summaryOf(counts: SummaryCounts): EvalSummary {
  return {
    cases: counts.cases,
    done: counts.done,
    passed: counts.passed,
    failed: counts.done - counts.passed,
    passRate: counts.cases === 0 ? 0 : round(counts.passed / counts.cases, 4),
    sourceHitRate:
      counts.expectedSources === 0 ? null : round(counts.citedSources / counts.expectedSources, 4),
    p50LatencyMs: counts.p50LatencyMs,
    credits: round(counts.credits, 6),
  };
}

export type CaseChange = "fixed" | "regressed" | "unchanged" | "added" | "removed";

/**
 * A case of two runs side by side: fixed (failed, now passes), regressed (passed, now fails),
 * unchanged; added or removed when only one run has it. A case not done counts as not passed.
 */
export function compareCases(
  baseline: ReadonlyArray<{ caseId: string; question: string; passed: boolean | null }>,
  current: ReadonlyArray<{ caseId: string; question: string; passed: boolean | null }>,
) {
  const before = new Map(baseline.map((result) => [result.caseId, result]));
  type ComparedCase = {
    caseId: string;
    question: string;
    baselinePassed: boolean | null;
    passed: boolean | null;
    change: CaseChange;
  };
  const cases = current.map((result): ComparedCase => {
    const old = before.get(result.caseId);
    before.delete(result.caseId);
    const passed = result.passed === true;
    const change: CaseChange = !old
      ? "added"
      : old.passed === true && !passed
        ? "regressed"
        : old.passed !== true && passed
          ? "fixed"
          : "unchanged";
    return {
      caseId: result.caseId,
      question: result.question,
      baselinePassed: old ? old.passed === true : null,
      passed,
      change,
    };
  });
  for (const old of before.values()) {
    cases.push({
      caseId: old.caseId,
      question: old.question,
      baselinePassed: old.passed === true,
      passed: null,
      change: "removed",
    });
  }
  const count = (change: CaseChange) => cases.filter((entry) => entry.change === change).length;
  return {
    fixed: count("fixed"),
    regressed: count("regressed"),
    unchanged: count("unchanged"),
    added: count("added"),
    removed: count("removed"),
    cases,
  };
}
