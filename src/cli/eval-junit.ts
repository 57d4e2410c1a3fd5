/** A run's results as a JUnit XML report, the format CI systems read test results in. */

export type JunitCase = {
  caseId: string;
  question: string;
  passed: boolean;
  latencyMs: number | null;
  checks: Array<{ name: string; passed: boolean; detail: string }>;
  /** Why the case counts as failed besides its checks (a regression against the baseline). */
  note?: string;
};

export type JunitRun = {
  id: string;
  evalSetId: string;
  status: string;
  error: string | null;
  cases: number;
  results: JunitCase[];
};

// XML 1.0 allows tab, line feed and carriage return below 0x20, and nothing else there.
// biome-ignore lint/suspicious/noControlCharactersInRegex: the characters XML cannot hold
const NOT_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g;

function xmlText(text: string): string {
  return text
    .replace(NOT_XML, "")
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;");
}

const seconds = (milliseconds: number | null) => ((milliseconds ?? 0) / 1000).toFixed(3);

/** A one-line test name: the question, shortened. */
function caseName(question: string): string {
  const line = question.replace(/\s+/g, " ").trim();
  return line.length > 120 ? `${line.slice(0, 119)}…` : line;
}

export function junitReport(run: JunitRun): string {
  const failures = run.results.filter((result) => !result.passed || result.note).length;
  // Cases the run never reached (it failed mid-way) are reported as errors, not left out.
  const missing = run.cases - run.results.length;
  const tests = run.results.length + (missing > 0 ? 1 : 0);
  const errors = missing > 0 ? 1 : 0;
  const time = run.results.reduce((total, result) => total + (result.latencyMs ?? 0), 0);
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="agentdesk eval" tests="${tests}" failures="${failures}" errors="${errors}" time="${seconds(time)}">`,
    `  <testsuite name="eval set ${xmlText(run.evalSetId)}" id="${xmlText(run.id)}" tests="${tests}" failures="${failures}" errors="${errors}" time="${seconds(time)}">`,
  ];
  for (const result of run.results) {
    const open = `    <testcase classname="eval.${xmlText(run.evalSetId)}" name="${xmlText(caseName(result.question))}" time="${seconds(result.latencyMs)}">`;
    const failed = result.checks.filter((check) => !check.passed);
    if (result.passed && !result.note) {
      lines.push(`${open.slice(0, -1)}/>`);
      continue;
    }
    const message =
      result.note ?? failed.map((check) => `${check.name}: ${check.detail}`).join("; ");
    const body = [
      `case ${result.caseId}`,
      ...result.checks.map(
        (check) => `${check.passed ? "pass" : "FAIL"} ${check.name}: ${check.detail}`,
      ),
    ].join("\n");
    lines.push(
      open,
      `      <failure message="${xmlText(message)}" type="${result.note ? "regression" : "check"}">${xmlText(body)}</failure>`,
      "    </testcase>",
    );
  }
  if (missing > 0) {
    lines.push(
      `    <testcase classname="eval.${xmlText(run.evalSetId)}" name="cases not run (${missing})" time="0">`,
      `      <error message="${xmlText(`The run ${run.status}${run.error ? `: ${run.error}` : ""}`)}" type="run"/>`,
      "    </testcase>",
    );
  }
  lines.push("  </testsuite>", "</testsuites>", "");
  return lines.join("\n");
}
