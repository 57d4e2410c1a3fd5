import { loadavg } from "node:os";
import { setTimeout as sleep } from "node:timers/promises";
import { ADMIN_TOKEN, startTestApp } from "../test/harness/app.ts";
import { benchDatabases } from "./lib/databases.ts";
import { startModelProcess } from "./lib/fake-model-process.ts";
import { formatTable } from "./lib/load.ts";

/**
 * npm run bench -- eval [--cases=200] [--only=pglite|postgres]
 *
 * An eval run (docs/evaluation.md) of a set of `cases` cases, each with offline assertions
 * (mustInclude, mustNotInclude), against a zero-latency fake OpenAI server in its own process,
 * on PGlite and on PostgreSQL (BENCH_DATABASE_URL or TEST_DATABASE_URL): the time from
 * POST /api/eval-runs until GET /api/eval-runs/{id} says completed, and the progress that GET
 * showed along the way (read every 250 ms, as the CLI does every second).
 */
const POLL_MS = 250;

type RunBody = {
  status: string;
  summary: { cases: number; done: number; passed: number; p50LatencyMs: number | null };
};

export async function run(args: string[]): Promise<void> {
  const option = (name: string) => args.find((arg) => arg.startsWith(`--${name}=`))?.split("=")[1];
  const cases = Number(option("cases") ?? 200);
  const only = option("only");
  const model = await startModelProcess();
  const rows: Array<Record<string, string | number>> = [];
  try {
    for await (const bench of benchDatabases()) {
      if (only && !bench.label.startsWith(only)) {
        await bench.dispose();
        continue;
      }
      const app = await startTestApp({
        database: bench.database,
        env: { OPENAI_API_KEY: "sk-bench", OPENAI_BASE_URL: model.url },
      });
      try {
        const org = await app.createOrganization("Bench");
        const inject = async (method: "GET" | "POST", url: string, payload?: object) => {
          const response = await app.api.inject({
            method,
            url,
            headers: org.auth,
            ...(payload ? { payload } : {}),
          });
          if (response.statusCode >= 300) throw new Error(`${url}: ${response.body}`);
          return response.json();
        };
        await app.api.inject({
          method: "POST",
          url: `/api/admin/organizations/${org.id}/credits`,
          headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
          payload: { amount: 1_000_000 },
        });
        const agent = await inject("POST", "/api/agents", { name: "Bench" });
        const set = await inject("POST", "/api/eval-sets", { name: "Bench", agentId: agent.id });
        for (let index = 0; index < cases; index += 1) {
          // The fake answers "Answer: <question>": every other case fails its assertion.
          await inject("POST", `/api/eval-sets/${set.id}/cases`, {
            question: `Question ${index} about refunds`,
            mustInclude: [index % 2 === 0 ? "refunds" : "vouchers"],
            mustNotInclude: ["sorry"],
          });
        }
        const loadBefore = loadavg()[0]!.toFixed(2);
        const started = performance.now();
        const { id } = await inject("POST", "/api/eval-runs", { evalSetId: set.id });
        const progress: number[] = [];
        let body: RunBody;
        for (;;) {
          body = (await inject("GET", `/api/eval-runs/${id}`)) as RunBody;
          progress.push(body.summary.done);
          if (body.status === "completed" || body.status === "failed") break;
          await sleep(POLL_MS);
        }
        const seconds = (performance.now() - started) / 1000;
        const visible = progress.filter((done) => done > 0 && done < cases);
        rows.push({
          database: bench.label,
          status: body.status,
          cases: body.summary.cases,
          passed: body.summary.passed,
          "total s": seconds.toFixed(2),
          "cases/s": (cases / seconds).toFixed(1),
          "p50 case ms": body.summary.p50LatencyMs ?? "-",
          "reads in progress": visible.length,
          "progress seen": [...new Set(visible)].slice(0, 6).join(" → "),
          "load avg": `${loadBefore} → ${loadavg()[0]!.toFixed(2)}`,
        });
      } finally {
        await app.close();
        await bench.dispose();
      }
    }
  } finally {
    model.process.kill();
  }
  process.stdout.write(`\nEval run of ${cases} cases\n\n${formatTable(rows)}\n`);
}
