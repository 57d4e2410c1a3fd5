import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { ADMIN_TOKEN, type TestOrganization } from "./app.ts";

/** `agentdesk serve` as its own process, as in production, with its listeners on free ports. */
export type ServiceProcess = {
  apiUrl: string;
  /** When its banner said it was up. */
  upAt: number;
  /** stdout and stderr so far (for failure messages). */
  output(): string;
  /** Sends a request to the dashboard API and parses the JSON answer (typed by the caller). */
  request<Body>(
    method: string,
    path: string,
    init?: RequestInit,
  ): Promise<{ status: number; body: Body }>;
  createOrganization(name: string): Promise<TestOrganization>;
  /** SIGKILL: no shutdown code runs, as with a crash or an OOM kill. */
  kill(): Promise<void>;
  /** SIGTERM, then SIGKILL if it has not exited within a few seconds. */
  stop(): Promise<void>;
};

type RequestInit = {
  auth?: TestOrganization;
  json?: unknown;
  body?: Buffer;
  headers?: Record<string, string>;
};

const BANNER_TIMEOUT_MS = 60_000;

/**
 * Starts `node bin/agentdesk.js serve` (the compiled dist/, which the test run's global setup
 * rebuilt if a source changed) with only the given environment (plus PATH), and waits for its
 * banner. The logs go to the process's output, kept for failure messages.
 */
export async function startServiceProcess(env: Record<string, string>): Promise<ServiceProcess> {
  const child: ChildProcess = spawn(process.execPath, ["bin/agentdesk.js", "serve"], {
    env: {
      PATH: process.env.PATH,
      PORT: "0",
      SITE_PORT: "0",
      LOG_LEVEL: "warn",
      ADMIN_TOKEN,
      BOOTSTRAP_DEFAULT_ORG: "false",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr!.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = once(child, "exit");
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("no banner")), BANNER_TIMEOUT_MS);
      const check = () => {
        if (!output.includes("agentdesk worker: running")) return;
        clearTimeout(timer);
        resolve();
      };
      child.stdout!.on("data", check);
      void exited.then(() => reject(new Error("exited before its banner")));
    });
  } catch (error) {
    child.kill("SIGKILL");
    throw new Error(`agentdesk serve did not start (${(error as Error).message}):\n${output}`);
  }
  const apiUrl = /dashboard API: (http:\/\/\S+)/.exec(output)![1]!;

  const service: ServiceProcess = {
    apiUrl,
    upAt: Date.now(),
    output: () => output,
    async request<Body>(method: string, path: string, init: RequestInit = {}) {
      const headers: Record<string, string> = { ...init.headers };
      if (init.auth) headers.authorization = init.auth.auth.authorization;
      let body: string | Buffer | undefined = init.body;
      if (init.json !== undefined) {
        headers["content-type"] = "application/json";
        body = JSON.stringify(init.json);
      }
      const response = await fetch(`${apiUrl}${path}`, { method, headers, body });
      const text = await response.text();
      return { status: response.status, body: (text ? JSON.parse(text) : null) as Body };
    },
    async createOrganization(name) {
      const { status, body } = await service.request<{
        organization: { id: string };
        user: { id: string };
        apiKey: string;
        apiKeyId: string;
      }>("POST", "/api/admin/organizations", {
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
        json: { name },
      });
      if (status !== 201) throw new Error(`createOrganization: ${status} ${JSON.stringify(body)}`);
      return {
        id: body.organization.id,
        apiKey: body.apiKey,
        apiKeyId: body.apiKeyId,
        userId: body.user.id,
        auth: { authorization: `Bearer ${body.apiKey}` },
      };
    },
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      await exited;
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
  return service;
}
