import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { once } from "node:events";

export type ServiceRole = "all" | "api" | "worker";

export type RunningService = {
  role: ServiceRole;
  /** The dashboard API's base URL (roles `all` and `api`). */
  apiUrl: string | null;
  /** SIGTERM, then SIGKILL if it has not exited within 15 s. */
  stop(): Promise<void>;
};

const BANNER_TIMEOUT_MS = 60_000;

/** Compiles src/ into dist/ when a source is newer than the last build (as `npm start` does). */
export function buildIfStale(): void {
  execFileSync(process.execPath, ["scripts/build.mjs", "--if-stale"], { stdio: "inherit" });
}

/**
 * `agentdesk serve --role <role>` as its own process, with only the given environment (plus
 * PATH), listeners on free ports; resolves once its banner says it is up.
 */
export async function startService(
  role: ServiceRole,
  env: Record<string, string>,
): Promise<RunningService> {
  const child: ChildProcess = spawn(
    process.execPath,
    ["bin/agentdesk.js", "serve", "--role", role],
    {
      env: { PATH: process.env.PATH, PORT: "0", SITE_PORT: "0", LOG_LEVEL: "warn", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let output = "";
  const keep = (chunk: Buffer) => {
    output += chunk.toString();
  };
  child.stdout!.on("data", keep);
  child.stderr!.on("data", keep);
  const exited = once(child, "exit");
  const banner = role === "worker" ? /agentdesk worker: running/ : /dashboard API: (http:\/\/\S+)/;
  try {
    const match = await new Promise<RegExpExecArray>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("no banner")), BANNER_TIMEOUT_MS);
      child.stdout!.on("data", () => {
        const found = banner.exec(output);
        if (!found) return;
        clearTimeout(timer);
        resolve(found);
      });
      void exited.then(() => reject(new Error("exited before its banner")));
    });
    // What it logs from now on (warnings and errors) goes to ours.
    child.stdout!.off("data", keep);
    child.stderr!.off("data", keep);
    child.stdout!.pipe(process.stderr);
    child.stderr!.pipe(process.stderr);
    return {
      role,
      apiUrl: match[1] ?? null,
      async stop() {
        if (child.exitCode !== null || child.signalCode !== null) return;
        child.kill("SIGTERM");
        const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
        await exited;
        clearTimeout(timer);
      },
    };
  } catch (error) {
    child.kill("SIGKILL");
    throw new Error(
      `agentdesk serve --role ${role} did not start (${(error as Error).message}):\n${output}`,
    );
  }
}
