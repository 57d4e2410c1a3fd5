import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { sql } from "drizzle-orm";
import { pino } from "pino";
import { createRuntime, type Runtime } from "../src/app/runtime.ts";
import { parseConfig } from "../src/config/index.ts";
import { rowsOf } from "../src/db/client.ts";
import { multipartBody } from "../test/knowledge/knowledge-helpers.ts";
import { corpusQuestions, markdownDocument } from "./lib/knowledge-data.ts";
import { formatTable } from "./lib/load.ts";

/**
 * NODE_OPTIONS=--expose-gc npm run bench -- embedded-memory [--files=40] [--queries=300]
 *   [--messages=5000] [--shared-buffers-mb=16] [--restarted]
 *
 * Where the service's memory goes on the embedded database, in the black-box harness's query
 * and export scenario: the runtime as `npm start` builds it (role all, PGlite in a fresh
 * DATA_DIR), a fake OpenAI server in a child process, then through the API 40 Markdown files
 * (~1,000 chunks) ingested, agent queries over them (which load the chunk copies), query-agent
 * appends (batches of 32, 100 per conversation) and three conversation exports. After each step,
 * after a full collection: the process's RSS and high-water mark, V8's heap, the ArrayBuffers,
 * and the WebAssembly memory of PGlite (every WebAssembly.Memory made, found by wrapping its
 * constructor). `--shared-buffers-mb` sets PGLITE_SHARED_BUFFERS_MB (128 is PGlite's own default).
 * A fresh DATA_DIR runs initdb in the service's process, as the harness's first start does;
 * `--restarted` creates the cluster in a child process first, as a service that restarts finds it.
 */
const MB = 1024 * 1024;
const ADMIN_TOKEN = "bench-admin-token-0123456789";
const mb = (bytes: number) => (bytes / MB).toFixed(1);

type WasmMemory = { buffer: ArrayBuffer };
type WasmMemoryClass = new (descriptor: object) => WasmMemory;

/** Every WebAssembly.Memory made from now on (PGlite's instance and initdb's). */
function trackWasmMemories(): () => number[] {
  // The project's TypeScript libraries do not declare WebAssembly's JavaScript API.
  const wasm = (globalThis as unknown as { WebAssembly: { Memory: WasmMemoryClass } }).WebAssembly;
  const memories: Array<WeakRef<WasmMemory>> = [];
  const Original = wasm.Memory;
  wasm.Memory = class extends Original {
    constructor(descriptor: object) {
      super(descriptor);
      memories.push(new WeakRef(this));
    }
  };
  return () => memories.flatMap((ref) => ref.deref()?.buffer.byteLength ?? []);
}

function procStatus(): Record<string, number> {
  const fields: Record<string, number> = {};
  for (const line of readFileSync("/proc/self/status", "utf8").split("\n")) {
    const match = /^(VmRSS|VmHWM|RssAnon|RssFile):\s+(\d+) kB/.exec(line);
    if (match) fields[match[1]!] = Number(match[2]) * 1024;
  }
  return fields;
}

async function startModelProcess(): Promise<{ url: string; process: ChildProcess }> {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", fileURLToPath(import.meta.url), "--serve-fake-model"],
    { stdio: ["ignore", "pipe", "inherit"], env: { ...process.env, NODE_OPTIONS: "" } },
  );
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.once("data", (chunk: Buffer) => resolve(chunk.toString().trim()));
    child.once("exit", (code) => reject(new Error(`fake model exited with ${code}`)));
  });
  return { url, process: child };
}

/** Runs initdb and the migrations in another process, so their memory is not counted here. */
async function createClusterElsewhere(dataDir: string): Promise<void> {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", fileURLToPath(import.meta.url), "--create-cluster", dataDir],
    { stdio: "inherit", env: { ...process.env, NODE_OPTIONS: "" } },
  );
  const code = await new Promise((resolve) => child.once("exit", resolve));
  if (code !== 0) throw new Error(`creating the cluster exited with ${code}`);
}

async function serveFakeModel(): Promise<void> {
  const { startFakeOpenAI } = await import("../test/fakes/openai-server.ts");
  const fake = await startFakeOpenAI({ apiKey: "sk-bench" });
  // The recorder would otherwise keep every request of the run in memory.
  setInterval(() => {
    fake.requests.length = 0;
  }, 200).unref();
  process.stdout.write(`${fake.url}\n`);
}

type Options = { files: number; queries: number; messages: number };

type Snapshot = (step: string, note?: string) => void;

async function measure(runtime: Runtime, options: Options, snapshot: Snapshot) {
  const api = runtime.api!;
  const inject = async (method: string, url: string, key: string, payload?: object) => {
    const response = await api.inject({
      method: method as "GET",
      url,
      headers: { authorization: `Bearer ${key}` },
      ...(payload ? { payload } : {}),
    });
    if (response.statusCode >= 300) {
      throw new Error(`${method} ${url}: ${response.statusCode} ${response.body.slice(0, 200)}`);
    }
    return response;
  };
  const created = (
    await inject("POST", "/api/admin/organizations", ADMIN_TOKEN, { name: "Bench" })
  ).json() as { organization: { id: string }; apiKey: string };
  const key = created.apiKey;
  await inject("POST", `/api/admin/organizations/${created.organization.id}/credits`, ADMIN_TOKEN, {
    amount: 1_000_000_000,
  });

  const started = performance.now();
  const datastore = (await inject("POST", "/api/datastores", key, { name: "Perf" })).json().id;
  const ids: string[] = [];
  for (let index = 0; index < options.files; index += 1) {
    const upload = multipartBody(
      [
        { name: "type", value: "file" },
        { name: "datastoreId", value: datastore },
      ],
      {
        fileName: `doc-${index}.md`,
        contentType: "text/markdown",
        content: markdownDocument(index, 10_800, 3),
      },
    );
    const response = await api.inject({
      method: "POST",
      url: "/api/datasources",
      headers: { authorization: `Bearer ${key}`, ...upload.headers },
      payload: upload.payload,
    });
    ids.push(response.json().id);
  }
  let chunks = 0;
  for (const id of ids) {
    for (;;) {
      const source = (await inject("GET", `/api/datasources/${id}`, key)).json();
      if (source.status === "synched") {
        chunks += source.chunkCount;
        break;
      }
      if (source.status === "error") throw new Error(`datasource ${id} ended in error`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  const ingestSeconds = (performance.now() - started) / 1000;
  snapshot(`${chunks} chunks ingested`, `${ingestSeconds.toFixed(1)} s`);

  const agent = (
    await inject("POST", "/api/agents", key, {
      name: "Knowledge",
      modelName: "gpt_4o_mini",
      datastoreIds: [datastore],
    })
  ).json().id;
  const questions = corpusQuestions();
  const queryStarted = performance.now();
  for (let index = 0; index < options.queries; index += 16) {
    await Promise.all(
      Array.from({ length: Math.min(16, options.queries - index) }, (_, offset) =>
        inject("POST", `/api/agents/${agent}/query`, key, {
          query: questions[(index + offset) % questions.length],
        }),
      ),
    );
  }
  const queriesPerSecond = options.queries / ((performance.now() - queryStarted) / 1000);
  snapshot(`${options.queries} queries`, `${queriesPerSecond.toFixed(1)} queries/s`);

  const exportAgent = (await inject("POST", "/api/agents", key, { name: "Export" })).json().id;
  const conversations: string[] = [];
  const opening = Math.ceil(options.messages / 100);
  const appendStarted = performance.now();
  for (let sent = 0; sent < options.messages; ) {
    const batch = Math.min(32, options.messages - sent);
    const bodies = await Promise.all(
      Array.from({ length: batch }, (_, offset) => {
        const n = sent + offset;
        const conversationId = n < opening ? undefined : conversations[n % conversations.length];
        return inject("POST", `/api/agents/${exportAgent}/query-agent`, key, {
          query: `Message ${n}: is the order placed on Monday going to arrive before the weekend?`,
          ...(conversationId ? { conversationId } : {}),
        }).then((response) => response.json().conversationId as string);
      }),
    );
    if (sent < opening) conversations.push(...bodies);
    sent += batch;
  }
  const appendSeconds = (performance.now() - appendStarted) / 1000;
  snapshot(
    `${options.messages} messages appended`,
    `${(options.messages / appendSeconds).toFixed(0)} appends/s`,
  );
  return { exportAgent, key };
}

export async function run(args: string[]): Promise<void> {
  const option = (name: string, fallback: number) =>
    Number(args.find((arg) => arg.startsWith(`--${name}=`))?.split("=")[1] ?? fallback);
  const options: Options = {
    files: option("files", 40),
    queries: option("queries", 300),
    messages: option("messages", 5_000),
  };
  const sharedBuffers = args.find((arg) => arg.startsWith("--shared-buffers-mb="))?.split("=")[1];
  if (!globalThis.gc) process.stderr.write("(run with NODE_OPTIONS=--expose-gc for exact heaps)\n");
  const wasmMemories = trackWasmMemories();
  const dataDir = mkdtempSync(join(tmpdir(), "agentdesk-embedded-memory-"));
  if (args.includes("--restarted")) await createClusterElsewhere(dataDir);
  const model = await startModelProcess();
  const rows: Array<Record<string, string | number>> = [];
  let runtime: Runtime | null = null;
  const snapshot: Snapshot = (step, note = "") => {
    globalThis.gc?.();
    const usage = process.memoryUsage();
    const status = procStatus();
    const wasm = wasmMemories();
    rows.push({
      step,
      "RSS MB": mb(usage.rss),
      "peak RSS MB": mb(status.VmHWM ?? 0),
      "anon MB": mb(status.RssAnon ?? 0),
      "file MB": mb(status.RssFile ?? 0),
      "heap used MB": mb(usage.heapUsed),
      "heap total MB": mb(usage.heapTotal),
      "external MB": mb(usage.external),
      "arrayBuffers MB": mb(usage.arrayBuffers),
      "wasm MB": wasm.map(mb).join(" + ") || "-",
      load: loadavg()[0]!.toFixed(2),
      note,
    });
    process.stderr.write(`${JSON.stringify(rows.at(-1))}\n`);
  };
  try {
    snapshot("before boot");
    runtime = await createRuntime({
      config: parseConfig({
        DATA_DIR: dataDir,
        ADMIN_TOKEN,
        NODE_ENV: "development",
        LOG_LEVEL: "silent",
        BOOTSTRAP_DEFAULT_ORG: "false",
        OPENAI_API_KEY: "sk-bench",
        OPENAI_BASE_URL: model.url,
        ...(sharedBuffers ? { PGLITE_SHARED_BUFFERS_MB: sharedBuffers } : {}),
      }),
      logger: pino({ level: "silent" }),
      role: "all",
    });
    await runtime.api!.ready();
    const settings = rowsOf<{ name: string; value: string }>(
      await runtime.database.db.execute(
        sql`select name, current_setting(name) as value from pg_settings
            where name in ('shared_buffers', 'work_mem', 'temp_buffers', 'wal_buffers')`,
      ),
    );
    process.stdout.write(
      `PGlite: ${settings.map((row) => `${row.name}=${row.value}`).join(", ")}\n`,
    );
    snapshot("booted");
    const { exportAgent, key } = await measure(runtime, options, snapshot);
    const exportTimes: number[] = [];
    for (let round = 0; round < 3; round += 1) {
      const started = performance.now();
      const response = await runtime.api!.inject({
        method: "GET",
        url: `/api/agents/${exportAgent}/conversations-export?limit=100000`,
        headers: { authorization: `Bearer ${key}` },
      });
      if (response.statusCode !== 200) throw new Error(`export: ${response.statusCode}`);
      exportTimes.push(performance.now() - started);
    }
    const [size] = rowsOf<{ bytes: string }>(
      await runtime.database.db.execute(sql`select pg_database_size(current_database()) as bytes`),
    );
    snapshot(
      "3 exports",
      `${exportTimes.map((time) => time.toFixed(0)).join(", ")} ms; database ${mb(Number(size!.bytes))} MB`,
    );
    // The document parser's threads stop after 30 s idle (src/ingestion/parser/document-parser.ts).
    await new Promise((resolve) => setTimeout(resolve, 35_000));
    snapshot("35 s later");
  } finally {
    await runtime?.close();
    model.process.kill();
    rmSync(dataDir, { recursive: true, force: true });
  }
  process.stdout.write(`${formatTable(rows)}\n`);
}

if (
  process.argv[1] &&
  import.meta.url === pathToFileURL(process.argv[1]).href &&
  process.argv.includes("--serve-fake-model")
) {
  await serveFakeModel();
}

if (
  process.argv[1] &&
  import.meta.url === pathToFileURL(process.argv[1]).href &&
  process.argv.includes("--create-cluster")
) {
  const { openDatabase } = await import("../src/db/client.ts");
  const dataDir = process.argv[process.argv.indexOf("--create-cluster") + 1]!;
  await (await openDatabase({ kind: "pglite", dataDir })).close();
}
