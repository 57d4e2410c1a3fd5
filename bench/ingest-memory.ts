import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { eq } from "drizzle-orm";
import { pino } from "pino";
import { createRuntime } from "../src/app/runtime.ts";
import { parseConfig } from "../src/config/index.ts";
import { datasources } from "../src/db/schema/index.ts";
import type { Caller } from "../src/domain/caller.ts";
import { loadDocument } from "../src/ingestion/loaders/index.ts";
import { readHtmlPage } from "../src/ingestion/loaders/loader-html.ts";
import type { DocumentParser } from "../src/ingestion/parser/document-parser.ts";
import { prepareChunks } from "../src/ingestion/pipeline.ts";
import { benchDatabases } from "./lib/databases.ts";
import { markdownDocument } from "./lib/knowledge-data.ts";
import { formatTable } from "./lib/load.ts";
import { DOCUMENT_TYPES, MIME_TYPES, ordinaryDocument } from "./lib/ordinary-documents.ts";

/**
 * npm run bench -- ingest-memory [--sizes=1,5,10] [--types=md,pdf,docx,…] [--files=1000]
 *   [--skip-files] [--skip-markdown]
 *
 * What reading a document costs the service, per file type and size (ordinary documents of about
 * 1, 5 and 10 MB written from the retrieval corpus's prose), read the two ways in one run, each
 * in a fresh process: on the service's main thread, as before the parser threads, and in a
 * parser thread. For each: the process's peak RSS above what it held before (the kernel's
 * high-water mark), the main thread's heap growth, the longest the main event loop was blocked.
 * Then the ingestion of 1,000 Markdown files through the ingestion job's code, once with the
 * loaders on the main thread and once in the parser threads (twice each, alternating), on each
 * bench database. Office documents of 5 and 10 MB hold pictures as well as text (about a quarter
 * of their size is text), as such files do; one over a limit is shown refused, with what that cost.
 */
const MB = 1024 * 1024;
const execFileAsync = promisify(execFile);

type Probe = {
  seconds: number;
  characters: number;
  /** Why the document was refused (over a limit), or null when it was read. */
  refused: string | null;
  peakRssMb: number;
  mainHeapMb: number;
  maxDelayMs: number;
};

async function probe(mode: string, file: string, mime: string, warmUp: string): Promise<Probe> {
  const { stdout } = await execFileAsync(
    process.execPath,
    ["--import", "tsx", "bench/lib/parse-probe.mjs", mode, file, mime, warmUp],
    { maxBuffer: 16 * MB },
  );
  return JSON.parse(stdout.trim().split("\n").at(-1)!) as Probe;
}

async function fileRows(types: string[], sizes: number[]) {
  const folder = mkdtempSync(join(tmpdir(), "agentdesk-ingest-memory-"));
  const rows: Array<Record<string, string | number>> = [];
  try {
    for (const type of types) {
      const warmUp = join(folder, `warm-up.${type}`);
      writeFileSync(warmUp, await ordinaryDocument(type, 20_000));
      for (const size of sizes) {
        const bytes = await ordinaryDocument(type, size * MB);
        const file = join(folder, `document-${size}.${type}`);
        writeFileSync(file, bytes);
        for (const mode of ["in-process", "thread"]) {
          const result = await probe(mode, file, MIME_TYPES[type]!, warmUp).catch(
            (error: Error) => ({ error: error.message.split("\n").slice(-3).join(" ") }),
          );
          rows.push({
            type,
            MB: (bytes.byteLength / MB).toFixed(1),
            read: mode,
            ...("error" in result
              ? { seconds: "failed", "peak RSS MB": result.error.slice(0, 60) }
              : {
                  seconds: result.seconds.toFixed(2),
                  "M chars": result.refused
                    ? `refused: ${result.refused.slice(0, 40)}`
                    : (result.characters / 1e6).toFixed(2),
                  "peak RSS MB": Math.round(result.peakRssMb),
                  "main heap MB": Math.round(result.mainHeapMb),
                  "max loop delay ms": Math.round(result.maxDelayMs),
                }),
          });
          process.stderr.write(`${type} ${size} MB ${mode}: done\n`);
        }
      }
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
  return rows;
}

/** The loaders on the caller's thread: how the service read documents before its parser threads. */
const mainThreadParser: DocumentParser = {
  load: (input, options = {}) => {
    const { timeoutMs: _ignored, ...limits } = options.limits ?? {};
    return loadDocument(input, limits);
  },
  readHtml: async (html, url) => readHtmlPage(html, url),
  split: async (sections, options) => prepareChunks(sections, options),
  close: async () => {},
};

async function markdownRows(fileCount: number) {
  const documents = Array.from({ length: fileCount }, (_, index) =>
    Buffer.from(markdownDocument(index, 3_000 + (index % 7) * 1_000, 2)),
  );
  const rows: Array<Record<string, string | number>> = [];
  for await (const bench of benchDatabases()) {
    // Twice each, alternating, so neither gains from running second (a warm JIT, a warm cache).
    for (const [read, parser] of [
      ["in-process", mainThreadParser],
      ["thread", undefined],
      ["in-process", mainThreadParser],
      ["thread", undefined],
    ] as const) {
      const runtime = await createRuntime({
        config: parseConfig({
          LOG_LEVEL: "silent",
          BOOTSTRAP_DEFAULT_ORG: "false",
          KNOWLEDGE_PLAN_LIMITS: "",
        }),
        logger: pino({ level: "silent" }),
        role: "api",
        database: bench.database,
        ...(parser ? { parser } : {}),
      });
      try {
        const { knowledge, organizations } = runtime.services;
        const { organization, user, apiKeyId } = await organizations.createOrganization({
          name: `bench ${read}`,
          plan: "bench",
        });
        const caller: Caller = {
          organizationId: organization.id,
          userId: user.id,
          apiKeyId,
          agentIds: null,
          actor: { type: "key", id: apiKeyId },
          requestId: "bench",
        };
        const store = await knowledge.datastores.create(caller, { name: "markdown" });
        const started = performance.now();
        let chunks = 0;
        for (const [index, bytes] of documents.entries()) {
          const created = await knowledge.datasources.createFile(caller, {
            datastoreId: store.id,
            file: { bytes, declaredMime: "text/markdown", fileName: `doc-${index}.md` },
          });
          const [row] = await bench.database.db
            .select({ generation: datasources.syncGeneration })
            .from(datasources)
            .where(eq(datasources.id, created.id));
          await knowledge.runSync({
            ...caller,
            datasourceId: created.id,
            generation: row!.generation,
          });
          const synced = await knowledge.datasources.get(caller, created.id);
          if (synced.status !== "synched") throw new Error(`doc-${index}.md: ${synced.status}`);
          chunks += synced.chunkCount;
        }
        const seconds = (performance.now() - started) / 1000;
        rows.push({
          database: bench.label,
          read,
          files: fileCount,
          chunks,
          seconds: seconds.toFixed(1),
          "files/s": (fileCount / seconds).toFixed(1),
        });
      } finally {
        await runtime.close();
      }
    }
    await bench.dispose();
  }
  return rows;
}

export async function run(args: string[]): Promise<void> {
  const option = (name: string, fallback: string) =>
    args.find((arg) => arg.startsWith(`--${name}=`))?.split("=")[1] ?? fallback;
  const sizes = option("sizes", "1,5,10").split(",").map(Number);
  const types = option("types", DOCUMENT_TYPES.join(",")).split(",");
  const files = Number(option("files", "1000"));
  if (!args.includes("--skip-files")) {
    process.stdout.write(`${formatTable(await fileRows(types, sizes))}\n\n`);
  }
  if (!args.includes("--skip-markdown")) {
    process.stdout.write(`${formatTable(await markdownRows(files))}\n`);
  }
}
