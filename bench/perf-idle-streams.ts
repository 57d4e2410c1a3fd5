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
 *   [--harness=../shared/perf] [--control]
 *
 * The shared harness's query figures (`node run.mjs --only query`, unmodified: it is the
 * yardstick) with and without `streams` idle GET /api/events streams held open against the
 * service it starts, `pairs` rounds of one run of each arm, the arms' order rotated every round
 * (A B, B A, …) so that no arm always follows the other. `--control` adds a third arm: the same
 * streams held by a bare server in a process of its own (lib/idle-sse-server.mjs), which tells
 * what holding them costs the machine (the clients' process, the kernel) apart from what they
 * cost the service. The harness does not
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
  control: boolean;
};

/** Who holds the run's idle streams: nobody, the service, or a bare server (the control). */
type Arm = "none" | "service" | "bare server";

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
    control: args.includes("--control"),
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
  arm: Arm;
  rps: number;
  p50: number;
  p99: number;
  loadStart: string;
  loadEnd: string;
  /** Seconds between the streams being all open and the measured part beginning. */
  margin: number | null;
};

/** Opens the idle streams in a child process; resolves once they are all open. */
async function openIdleStreams(base: string, authorization: string, count: number) {
  const clients: ChildProcess = fork(
    new URL("./lib/idle-sse-clients.mjs", import.meta.url),
    [`${base}/api/events`, authorization, String(count)],
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

/** The control arm's server (lib/idle-sse-server.mjs), pinging as often as the service does. */
async function startBareServer() {
  const server = fork(new URL("./lib/idle-sse-server.mjs", import.meta.url), ["15000"], {
    execArgv: [],
  });
  const [port] = await once(server, "message");
  return {
    url: `http://127.0.0.1:${String(port)}`,
    async close() {
      if (server.exitCode !== null) return;
      const exited = once(server, "exit");
      server.send("close");
      await exited;
    },
  };
}

/** Opens the run's idle streams where its arm says, once the service's port is known. */
async function holdStreams(arm: Arm, port: string, count: number) {
  if (arm === "bare server") {
    const server = await startBareServer();
    const clients = await openIdleStreams(server.url, "", count);
    return {
      closedEarly: clients.closedEarly,
      async close() {
        await clients.close();
        await server.close();
      },
    };
  }
  const key = await defaultKeyOf(port);
  return openIdleStreams(`http://127.0.0.1:${port}`, `Bearer ${key}`, count);
}

/** One harness run of the query scenario, with the idle streams held as `arm` says. */
async function harnessRun(options: Options, run: number, arm: Arm): Promise<Round> {
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
    if (port && arm !== "none") {
      opening = (async () => {
        const from = Date.now();
        held.clients = await holdStreams(arm, port, options.streams);
        held.readyAt = Date.now();
        const openAfter = ((held.readyAt - from) / 1000).toFixed(1);
        process.stderr.write(`  (streams open after ${openAfter} s)\n`);
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
    arm !== "none" && held.readyAt !== null && measuredFrom !== null
      ? (measuredFrom - held.readyAt) / 1000
      : null;
  if (arm !== "none" && (margin === null || margin < 0)) {
    const late = margin === null ? "never" : `${(-margin).toFixed(1)} s after it`;
    throw new Error(`the idle streams were not all open when the measured part began (${late})`);
  }
  const figure = (name: string) => Number(new RegExp(`${name}=([\\d.]+)`).exec(figures!)![1]);
  return {
    run,
    arm,
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
  "idle streams held by": round.arm,
  "req/s": round.rps,
  "p50 ms": round.p50,
  "p99 ms": round.p99,
  "open before measuring s": round.margin === null ? "-" : round.margin.toFixed(1),
  "load avg start → end": `${round.loadStart} → ${round.loadEnd}`,
});

export async function run(args: string[]): Promise<void> {
  const options = parseOptions(args);
  const arms: Arm[] = options.control ? ["none", "service", "bare server"] : ["none", "service"];
  const rounds: Round[] = [];
  let index = 0;
  for (let pair = 0; pair < options.pairs; pair += 1) {
    const shift = pair % arms.length;
    for (const arm of [...arms.slice(shift), ...arms.slice(0, shift)]) {
      // A failed run (harness error, streams late or closed) is told and left out.
      try {
        const round = await harnessRun(options, index + 1, arm);
        rounds.push(round);
        process.stderr.write(`${JSON.stringify(row(round))}\n`);
      } catch (error) {
        process.stderr.write(`run ${index + 1} (streams: ${arm}): ${(error as Error).message}\n`);
      }
      index += 1;
    }
  }
  process.stdout.write(
    `Shared harness (${options.harness}), --only query --seconds ${options.seconds} --warmup ` +
      `${options.warmup}; ${options.streams} idle GET /api/events streams of the Default ` +
      "organization\n\n",
  );
  process.stdout.write(`${formatTable(rounds.map(row))}\n\n`);
  const without = rounds.filter((round) => round.arm === "none");
  for (const arm of arms.slice(1)) {
    const held = rounds.filter((round) => round.arm === arm);
    if (without.length === 0 || held.length === 0) continue;
    const ratio = (pick: (round: Round) => number) =>
      (median(held.map(pick)) / median(without.map(pick))).toFixed(3);
    process.stdout.write(
      `median held by ${arm} / without: req/s ${ratio((round) => round.rps)}, p50 ${ratio(
        (round) => round.p50,
      )}, p99 ${ratio((round) => round.p99)}\n`,
    );
  }
}
