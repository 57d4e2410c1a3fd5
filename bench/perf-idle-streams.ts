import { type ChildProcess, fork, spawn } from "node:child_process";
import { once } from "node:events";
import { readdirSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { setTimeout as sleep } from "node:timers/promises";
import { formatTable } from "./lib/load.ts";

/**
 * npm run bench -- perf-idle-streams [--pairs=2] [--streams=1000] [--seconds=20] [--warmup=25]
 *   [--harness=../shared/perf]
 *
 * The shared harness's query figures (`node run.mjs --only query`, unmodified: it is the
 * yardstick) with and without `streams` idle GET /api/events streams held open against the
 * service it starts, alternating without and with (A B A B, `pairs` times). The harness does not
 * tell its admin token, so the streams use the key of the "Default" organization the service
 * creates at its first start (BOOTSTRAP_DEFAULT_ORG is on by default), read from the service's
 * log in the harness's temp directory: that organization gets no events during the run, so the
 * streams are idle (keep-alive comments only). They are opened from a child process
 * (lib/idle-sse-clients.mjs) as soon as the key is logged, and must all be open before the
 * measured part of the query run begins (after its warm-up), else the run is an error.
 */
type Options = {
  pairs: number;
  streams: number;
  seconds: number;
  warmup: number;
  harness: string;
};

function parseOptions(args: string[]): Options {
  const value = (name: string) => args.find((arg) => arg.startsWith(`--${name}=`))?.split("=")[1];
  return {
    pairs: Number(value("pairs") ?? 2),
    streams: Number(value("streams") ?? 1_000),
    seconds: Number(value("seconds") ?? 20),
    // The 1,000 streams open while the harness ingests its files, 13-21 s after the service
    // starts on a two-core machine: a shorter warm-up leaves them late and the run refused.
    warmup: Number(value("warmup") ?? 25),
    harness: path.resolve(value("harness") ?? "../shared/perf"),
  };
}

const KEY_TIMEOUT_MS = 60_000;

const loadAverage = () =>
  os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(" ");

/** The Default organization's key from the log of the service listening on `port`. */
async function defaultKeyOf(port: string): Promise<string> {
  const deadline = Date.now() + KEY_TIMEOUT_MS;
  const banner = `dashboard API: http://127.0.0.1:${port}`;
  while (Date.now() < deadline) {
    for (const entry of readdirSync(os.tmpdir())) {
      if (!entry.startsWith("agentdesk-perf-")) continue;
      let log: string;
      try {
        log = readFileSync(path.join(os.tmpdir(), entry, "service.log"), "utf8");
      } catch {
        continue;
      }
      if (!log.includes(banner)) continue;
      const key = /API key, shown only this once:\s+(\S+)/.exec(log)?.[1];
      if (key) return key;
    }
    await sleep(100);
  }
  throw new Error(`no Default organization key logged by the service on port ${port}`);
}

type Round = {
  /** Its place in the alternation, from 1. */
  run: number;
  streams: number;
  rps: number;
  p50: number;
  p99: number;
  loadStart: string;
  loadEnd: string;
  /** Seconds between the streams being all open and the measured part beginning. */
  margin: number | null;
};

/** Opens the idle streams in a child process; resolves once they are all open. */
async function openIdleStreams(apiBase: string, key: string, count: number) {
  const clients: ChildProcess = fork(
    new URL("./lib/idle-sse-clients.mjs", import.meta.url),
    [`${apiBase}/api/events`, `Bearer ${key}`, String(count)],
    { execArgv: [] },
  );
  const exited = once(clients, "exit");
  const [message] = await Promise.race([
    once(clients, "message"),
    exited.then(() => {
      throw new Error("the idle clients exited before they were all connected");
    }),
  ]);
  if (message !== "ready") throw new Error(`idle clients: ${String(message)}`);
  let closedEarly = false;
  void exited.then(() => {
    closedEarly = true;
  });
  return {
    /** True when the child ended before it was told to (a stream failed). */
    closedEarly: () => closedEarly,
    async close() {
      if (clients.exitCode !== null) return;
      clients.send("close");
      await exited;
    },
  };
}

type IdleStreams = Awaited<ReturnType<typeof openIdleStreams>>;

/** One harness run of the query scenario, with `streams` idle streams held (0: none). */
async function harnessRun(options: Options, run: number, streams: number): Promise<Round> {
  const loadStart = loadAverage();
  const harness = spawn(
    process.execPath,
    [
      "run.mjs",
      "--project",
      process.cwd(),
      "--only",
      "query",
      "--seconds",
      String(options.seconds),
      "--warmup",
      String(options.warmup),
    ],
    { cwd: options.harness, stdio: ["ignore", "pipe", "inherit"] },
  );
  const exited = once(harness, "exit");
  const held: { clients: IdleStreams | null; readyAt: number | null } = {
    clients: null,
    readyAt: null,
  };
  let opening: Promise<void> | null = null;
  let measuredFrom: number | null = null;
  let figures: string | null = null;
  let stillOpen = true;
  for await (const line of createInterface({ input: harness.stdout! })) {
    process.stderr.write(`  ${line}\n`);
    const port = /^# npm start \(api port (\d+)/.exec(line)?.[1];
    if (port && streams > 0) {
      opening = (async () => {
        const from = Date.now();
        const key = await defaultKeyOf(port);
        const keyAfter = ((Date.now() - from) / 1000).toFixed(1);
        held.clients = await openIdleStreams(`http://127.0.0.1:${port}`, key, streams);
        held.readyAt = Date.now();
        const openAfter = ((held.readyAt - from) / 1000).toFixed(1);
        process.stderr.write(
          `  (key logged after ${keyAfter} s, streams open after ${openAfter} s)\n`,
        );
      })();
      // Reported when awaited below; not an unhandled rejection meanwhile.
      opening.catch(() => {});
    }
    if (line.startsWith("# query: service (")) measuredFrom = Date.now() + options.warmup * 1000;
    if (line.startsWith("# query took") && held.clients) {
      stillOpen = !held.clients.closedEarly();
    }
    if (line.startsWith("perf-query:")) figures = line;
  }
  await exited;
  if (opening) await opening;
  await held.clients?.close();
  const loadEnd = loadAverage();
  if (!figures || figures.includes("error="))
    throw new Error(`harness: ${figures ?? "no figures"}`);
  if (!stillOpen) throw new Error("an idle stream closed during the query run");
  const margin =
    streams > 0 && held.readyAt !== null && measuredFrom !== null
      ? (measuredFrom - held.readyAt) / 1000
      : null;
  if (streams > 0 && (margin === null || margin < 0)) {
    const late = margin === null ? "never" : `${(-margin).toFixed(1)} s after it`;
    throw new Error(`the idle streams were not all open when the measured part began (${late})`);
  }
  const figure = (name: string) => Number(new RegExp(`${name}=([\\d.]+)`).exec(figures!)![1]);
  return {
    run,
    streams,
    rps: figure("rps"),
    p50: figure("p50_ms"),
    p99: figure("p99_ms"),
    loadStart,
    loadEnd,
    margin,
  };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

const row = (round: Round) => ({
  run: round.run,
  "idle streams": round.streams,
  "req/s": round.rps,
  "p50 ms": round.p50,
  "p99 ms": round.p99,
  "open before measuring s": round.margin === null ? "-" : round.margin.toFixed(1),
  "load avg start → end": `${round.loadStart} → ${round.loadEnd}`,
});

export async function run(args: string[]): Promise<void> {
  const options = parseOptions(args);
  const rounds: Round[] = [];
  let index = 0;
  for (let pair = 0; pair < options.pairs; pair += 1) {
    for (const streams of [0, options.streams]) {
      // A failed run (harness error, streams late or closed) is told and left out.
      try {
        const round = await harnessRun(options, index + 1, streams);
        rounds.push(round);
        process.stderr.write(`${JSON.stringify(row(round))}\n`);
      } catch (error) {
        process.stderr.write(
          `run ${index + 1} (${streams} streams): ${(error as Error).message}\n`,
        );
      }
      index += 1;
    }
  }
  process.stdout.write(
    `Shared harness (${options.harness}), --only query --seconds ${options.seconds} --warmup ` +
      `${options.warmup}; idle GET /api/events streams of the Default organization\n\n`,
  );
  process.stdout.write(`${formatTable(rounds.map(row))}\n\n`);
  const [without, withStreams] = [0, options.streams].map((streams) =>
    rounds.filter((round) => round.streams === streams),
  ) as [Round[], Round[]];
  if (without.length === 0 || withStreams.length === 0) return;
  const ratio = (pick: (round: Round) => number) =>
    (median(withStreams.map(pick)) / median(without.map(pick))).toFixed(3);
  process.stdout.write(
    `median with / without: req/s ${ratio((round) => round.rps)}, p50 ${ratio(
      (round) => round.p50,
    )}, p99 ${ratio((round) => round.p99)}\n`,
  );
}
