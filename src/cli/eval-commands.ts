import { writeFile } from "node:fs/promises";
import { setTimeout as sleep } from "node:timers/promises";
import { parseArgs } from "node:util";
import type { Env } from "../config/env-types.ts";
import { required, UsageError } from "./cli-options.ts";
import { type JunitCase, junitReport } from "./eval-junit.ts";

/** How often the run is read while it works. */
const POLL_MS = 1_000;
const DEFAULT_TIMEOUT_SECONDS = 1_800;
/** Exit code of a run that ran and did not pass (DESIGN.md §14). */
const NOT_PASSED = 2;

type Check = { name: string; passed: boolean; detail: string };
type RunResult = {
  caseId: string;
  question: string;
  passed: boolean;
  latencyMs: number | null;
  checks: Check[];
};
type Run = {
  id: string;
  evalSetId: string;
  status: "queued" | "running" | "completed" | "failed";
  error: string | null;
  summary: {
    cases: number;
    done: number;
    passed: number;
    failed: number;
    passRate: number;
    sourceHitRate: number | null;
    p50LatencyMs: number | null;
    credits: number;
  };
  results: RunResult[];
};
type Comparison = {
  fixed: number;
  regressed: number;
  unchanged: number;
  cases: Array<{ caseId: string; question: string; change: string }>;
};

/** The service could not be asked, or refused: the command could not run (exit code 1). */
class RunFailed extends Error {
  override name = "RunFailed";
}

function options(args: string[], env: Env) {
  const { values } = parseArgs({
    args,
    options: {
      set: { type: "string" },
      url: { type: "string" },
      key: { type: "string" },
      baseline: { type: "string" },
      "min-pass-rate": { type: "string" },
      "agent-version": { type: "string" },
      "judge-model": { type: "string" },
      timeout: { type: "string" },
      json: { type: "boolean", default: false },
      junit: { type: "string" },
    },
  });
  const url = (values.url ?? env.AGENTDESK_URL ?? `http://127.0.0.1:${env.PORT || "3000"}`).trim();
  if (!/^https?:\/\/[^/]/.test(url)) throw new UsageError("--url must be an http(s) URL");
  const key = values.key ?? env.AGENTDESK_API_KEY;
  if (!key?.trim()) throw new UsageError("--key (or AGENTDESK_API_KEY) is required");
  const rate = values["min-pass-rate"];
  const minPassRate = rate === undefined ? null : Number(rate);
  if (minPassRate !== null && !(rate!.trim() !== "" && minPassRate >= 0 && minPassRate <= 1)) {
    throw new UsageError("--min-pass-rate must be a number from 0 to 1, e.g. 0.9");
  }
  const version = values["agent-version"];
  if (version !== undefined && !/^[1-9]\d{0,8}$/.test(version)) {
    throw new UsageError("--agent-version must be a version number (1 or more)");
  }
  const timeout = Number(values.timeout ?? DEFAULT_TIMEOUT_SECONDS);
  if (!Number.isInteger(timeout) || timeout < 1) {
    throw new UsageError("--timeout must be a whole number of seconds (1 or more)");
  }
  if (values.junit !== undefined && values.junit.trim() === "") {
    throw new UsageError("--junit needs a file name");
  }
  return {
    set: required(values.set, "--set"),
    url: url.replace(/\/+$/, ""),
    key: key.trim(),
    baseline: values.baseline?.trim() || null,
    minPassRate,
    agentVersion: version === undefined ? undefined : Number(version),
    judgeModel: values["judge-model"]?.trim() || undefined,
    timeoutMs: timeout * 1000,
    json: values.json,
    junit: values.junit ?? null,
  };
}

/** One request to the service; its JSON, or RunFailed with the service's own error message. */
async function call<Body>(
  base: string,
  key: string,
  path: string,
  init: { method?: string; body?: unknown; expect: number },
): Promise<Body> {
  let response: Response;
  try {
    response = await fetch(`${base}${path}`, {
      method: init.method ?? "GET",
      headers: {
        authorization: `Bearer ${key}`,
        ...(init.body === undefined ? {} : { "content-type": "application/json" }),
      },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
      signal: AbortSignal.timeout(30_000),
    });
  } catch (error) {
    const cause = (error as Error & { cause?: Error }).cause?.message ?? (error as Error).message;
    throw new RunFailed(`cannot reach ${base}: ${cause}`);
  }
  const text = await response.text();
  if (response.status !== init.expect) {
    let message = text.slice(0, 500);
    try {
      const parsed = JSON.parse(text) as { error?: string; message?: string };
      message = parsed.error ?? parsed.message ?? message;
    } catch {}
    throw new RunFailed(`${init.method ?? "GET"} ${path} answered ${response.status}: ${message}`);
  }
  return JSON.parse(text) as Body;
}

const percent = (rate: number) => `${(rate * 100).toFixed(1)}%`;

/** `agentdesk eval run`: an eval set's run on a service, as a CI gate. */
export async function evalRun(args: string[], env: Env): Promise<void> {
  const opts = options(args, env);
  const ask = <Body>(path: string, init: Parameters<typeof call>[3]) =>
    call<Body>(opts.url, opts.key, path, init);
  const started = await ask<{ id: string; cases: number }>("/api/eval-runs", {
    method: "POST",
    body: {
      evalSetId: opts.set,
      ...(opts.agentVersion === undefined ? {} : { agentVersion: opts.agentVersion }),
      ...(opts.judgeModel === undefined ? {} : { judgeModel: opts.judgeModel }),
    },
    expect: 202,
  });
  const progress = (text: string) => {
    if (!opts.json) process.stderr.write(`${text}\n`);
  };
  progress(`Run ${started.id}: ${started.cases} cases of eval set ${opts.set}`);

  const deadline = Date.now() + opts.timeoutMs;
  let run: Run;
  let reported = -1;
  for (;;) {
    run = await ask<Run>(`/api/eval-runs/${started.id}?results=false`, { expect: 200 });
    if (run.summary.done !== reported) {
      reported = run.summary.done;
      progress(`  ${run.summary.done}/${run.summary.cases} done, ${run.summary.passed} passed`);
    }
    if (run.status === "completed" || run.status === "failed") {
      run = await ask<Run>(`/api/eval-runs/${started.id}`, { expect: 200 });
      break;
    }
    if (Date.now() > deadline) {
      throw new RunFailed(
        `run ${run.id} has not finished after ${opts.timeoutMs / 1000} s (${run.summary.done}/${run.summary.cases} done); it goes on in the service`,
      );
    }
    await sleep(POLL_MS);
  }

  const comparison =
    opts.baseline === null
      ? null
      : await ask<Comparison>(
          `/api/eval-runs/${run.id}/comparison?baseline=${encodeURIComponent(opts.baseline)}`,
          { expect: 200 },
        );
  const regressed = new Set(
    comparison?.cases.filter((entry) => entry.change === "regressed").map((entry) => entry.caseId),
  );
  const reasons: string[] = [];
  if (run.status === "failed") reasons.push(`the run failed: ${run.error ?? "no reason given"}`);
  if (comparison && comparison.regressed > 0) {
    reasons.push(`${comparison.regressed} cases regressed against run ${opts.baseline}`);
  }
  if (opts.minPassRate !== null && run.summary.passRate < opts.minPassRate) {
    reasons.push(
      `the pass rate ${percent(run.summary.passRate)} is under ${percent(opts.minPassRate)}`,
    );
  }

  if (opts.junit !== null) {
    const results: JunitCase[] = run.results.map((result) => ({
      ...result,
      ...(regressed.has(result.caseId)
        ? { note: `regressed: passed in run ${opts.baseline}` }
        : {}),
    }));
    await writeFile(opts.junit, junitReport({ ...run, cases: run.summary.cases, results }));
  }
  const passed = reasons.length === 0;
  const { summary } = run;
  if (opts.json) {
    process.stdout.write(`${JSON.stringify({ run, comparison, passed, reasons }, null, 2)}\n`);
  } else {
    const lines = [
      `Run ${run.id} ${run.status}: ${summary.passed}/${summary.cases} passed (${percent(summary.passRate)})`,
      `  source hit rate ${summary.sourceHitRate === null ? "-" : percent(summary.sourceHitRate)}, p50 latency ${summary.p50LatencyMs ?? "-"} ms, ${summary.credits} credits`,
      ...(comparison
        ? [
            `  against ${opts.baseline}: ${comparison.fixed} fixed, ${comparison.regressed} regressed, ${comparison.unchanged} unchanged`,
            ...comparison.cases
              .filter((entry) => entry.change === "regressed")
              .map((entry) => `    regressed: ${entry.question.slice(0, 100)}`),
          ]
        : []),
      ...run.results
        .filter((result) => !result.passed)
        .slice(0, 20)
        .map(
          (result) =>
            `  failed: ${result.question.slice(0, 80)} (${result.checks
              .filter((check) => !check.passed)
              .map((check) => check.name)
              .join(", ")})`,
        ),
      passed ? "PASSED" : `NOT PASSED: ${reasons.join("; ")}`,
    ];
    process.stdout.write(`${lines.join("\n")}\n`);
  }
  if (run.status === "failed") throw new RunFailed(`run ${run.id} failed: ${run.error}`);
  if (!passed) process.exitCode = NOT_PASSED;
}
