import { extname } from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import type { Logger } from "../../lib/logger.ts";
import { DocumentLoadError } from "../loaders/loader-errors.ts";
import type { HtmlPage } from "../loaders/loader-html.ts";
import type { LoadedSection, LoadInput, LoadLimits } from "../loaders/loader-types.ts";
import type { PreparedChunk } from "../pipeline.ts";
import type { ParseRequest, ParseResponse, ParseTask } from "./parser-protocol.ts";

export type DocumentParserSettings = {
  /** The heap of one parser thread (V8's old generation), in MB: a parse that needs more is ended. */
  maxMemoryMb: number;
  /** The longest one parse may take, unless its caller gives a shorter limit. */
  timeoutMs: number;
  /** Threads parsing side by side; further parses wait for one. */
  threads: number;
  /** How long an idle thread is kept for the next parse before it is stopped (default 30 s). */
  idleMs?: number;
  /** Most characters of text a document may hold, unless its caller gives a limit. */
  maxCharacters?: number;
};

/**
 * Reads documents and web pages in worker threads, away from the service's heap and event loop.
 * A thread has a hard heap limit (`resourceLimits`) and each parse a wall-clock limit, enforced
 * by terminating the thread: a document that exhausts either fails with a DocumentLoadError and
 * the service goes on. Threads are reused from one parse to the next, and stopped when idle.
 */
export type DocumentParser = {
  /** `loadDocument` in a parser thread; `limits.timeoutMs` shortens the time limit. */
  load(
    input: LoadInput,
    options?: { limits?: LoadLimits; signal?: AbortSignal },
  ): Promise<LoadedSection[]>;
  /** A web page's readable content as Markdown, its title and its links, in a parser thread. */
  readHtml(html: string, url: string, options?: { signal?: AbortSignal }): Promise<HtmlPage>;
  /** Loaded sections cut into chunks (the splitter), in a parser thread. */
  split(
    sections: LoadedSection[],
    options: { sourceUrl: string | null; signal?: AbortSignal },
  ): Promise<PreparedChunk[]>;
  /** Stops every thread; parses still waiting or running are refused. */
  close(): Promise<void>;
};

type Job = {
  id: number;
  task: ParseTask;
  timeoutMs: number;
  signal: AbortSignal | undefined;
  resolve(value: unknown): void;
  reject(error: unknown): void;
};

type Thread = {
  worker: Worker;
  job: Job | null;
  /** Ends the running job at its time limit. */
  deadline: NodeJS.Timeout | undefined;
  /** Stops the thread once it has been idle for `idleMs`. */
  idleTimer: NodeJS.Timeout | undefined;
  /** Why the thread died, when it died of itself (its heap limit, a crash). */
  death: (Error & { code?: string }) | undefined;
  /** Set when the pool ended the thread: its exit is expected. */
  ended: boolean;
};

const DEFAULT_IDLE_MS = 30_000;

// Compiled, the thread runs parser-thread.js beside this file. From the TypeScript sources (tsx,
// `npm run dev`, the tests) a thread does not inherit the parent's loader, so it registers tsx's.
const THREAD_ENTRY = new URL(
  `./parser-thread${extname(fileURLToPath(import.meta.url))}`,
  import.meta.url,
);

function startWorker(maxMemoryMb: number): Worker {
  const options = { resourceLimits: { maxOldGenerationSizeMb: maxMemoryMb } };
  if (!THREAD_ENTRY.pathname.endsWith(".ts")) return new Worker(THREAD_ENTRY, options);
  const bootstrap = `import("tsx/esm/api").then(({ register }) => { register(); return import(${JSON.stringify(THREAD_ENTRY.href)}); })`;
  return new Worker(bootstrap, { ...options, eval: true });
}

/** Errors keep their kind across the thread boundary: a DocumentLoadError is the document's fault. */
function errorFrom({ name, message }: { name: string; message: string }): Error {
  if (name === "DocumentLoadError") return new DocumentLoadError(message);
  const error = new Error(message);
  error.name = name;
  return error;
}

/** A copy of exactly the bytes of the view, whose buffer can be moved to the thread. */
function ownBytes(bytes: Uint8Array): Uint8Array {
  return Uint8Array.prototype.slice.call(bytes);
}

export function createDocumentParser(
  settings: DocumentParserSettings,
  logger?: Logger,
): DocumentParser {
  const idleMs = settings.idleMs ?? DEFAULT_IDLE_MS;
  const idle: Thread[] = [];
  const busy = new Set<Thread>();
  const queue: Job[] = [];
  let nextId = 1;
  let closed = false;

  const outOfMemory = () =>
    new DocumentLoadError(
      `The document needs more than ${settings.maxMemoryMb} MB of memory to read; split it into smaller files`,
    );
  const outOfTime = (timeoutMs: number) =>
    new DocumentLoadError(
      `Reading the document took longer than ${Math.round(timeoutMs / 1000)} s; giving up`,
    );

  function spawn(): Thread {
    const thread: Thread = {
      worker: startWorker(settings.maxMemoryMb),
      job: null,
      deadline: undefined,
      idleTimer: undefined,
      death: undefined,
      ended: false,
    };
    thread.worker.on("message", (response: ParseResponse) => finish(thread, response));
    thread.worker.on("error", (error) => {
      thread.death = error;
    });
    thread.worker.on("exit", () => died(thread));
    return thread;
  }

  function dispatch() {
    while (queue.length > 0 && !closed) {
      const thread =
        idle.pop() ?? (busy.size + idle.length < settings.threads ? spawn() : undefined);
      if (!thread) return;
      assign(thread, queue.shift()!);
    }
  }

  function assign(thread: Thread, job: Job) {
    clearTimeout(thread.idleTimer);
    thread.job = job;
    busy.add(thread);
    thread.worker.ref();
    thread.deadline = setTimeout(() => {
      logger?.warn({ timeoutMs: job.timeoutMs }, "a document parse ran out of time");
      end(thread, outOfTime(job.timeoutMs));
    }, job.timeoutMs);
    const request: ParseRequest = { id: job.id, task: job.task };
    const transfer =
      job.task.kind === "document" ? [job.task.input.bytes.buffer as ArrayBuffer] : [];
    thread.worker.postMessage(request, transfer);
  }

  /** Hands the running job's answer back and returns the thread to the idle ones. */
  function finish(thread: Thread, response: ParseResponse) {
    const job = thread.job;
    if (!job || response.id !== job.id) return;
    clearTimeout(thread.deadline);
    thread.job = null;
    busy.delete(thread);
    idle.push(thread);
    thread.worker.unref();
    thread.idleTimer = setTimeout(() => end(thread, null), idleMs);
    thread.idleTimer.unref();
    if (response.ok) job.resolve(response.value);
    else job.reject(errorFrom(response.error));
    dispatch();
  }

  /** Terminates a thread; its running job, if any, fails with `error`. */
  function end(thread: Thread, error: unknown) {
    if (thread.ended) return;
    thread.ended = true;
    clearTimeout(thread.deadline);
    clearTimeout(thread.idleTimer);
    busy.delete(thread);
    const index = idle.indexOf(thread);
    if (index >= 0) idle.splice(index, 1);
    const job = thread.job;
    thread.job = null;
    void thread.worker.terminate();
    if (job) job.reject(error);
    dispatch();
  }

  /** A thread that exited on its own: out of heap, or a crash of its parser. */
  function died(thread: Thread) {
    if (thread.ended) return;
    const outOfHeap = thread.death?.code === "ERR_WORKER_OUT_OF_MEMORY";
    if (thread.job) {
      logger?.warn(
        { maxMemoryMb: settings.maxMemoryMb, reason: thread.death?.message },
        outOfHeap ? "a document parse ran out of memory" : "a parser thread stopped",
      );
    }
    end(
      thread,
      outOfHeap
        ? outOfMemory()
        : new DocumentLoadError("The document could not be read: its parser stopped"),
    );
  }

  function submit<Value>(task: ParseTask, timeoutMs: number, signal?: AbortSignal) {
    return new Promise<Value>((resolve, reject) => {
      if (closed) return reject(new Error("The document parser is closed"));
      if (signal?.aborted) return reject(signal.reason);
      const job: Job = {
        id: nextId++,
        task,
        timeoutMs,
        signal,
        resolve: (value) => {
          signal?.removeEventListener("abort", abort);
          resolve(value as Value);
        },
        reject: (error) => {
          signal?.removeEventListener("abort", abort);
          reject(error);
        },
      };
      function abort() {
        const waiting = queue.indexOf(job);
        if (waiting >= 0) {
          queue.splice(waiting, 1);
          job.reject(signal?.reason);
          return;
        }
        const thread = [...busy].find((candidate) => candidate.job === job);
        if (thread) end(thread, signal?.reason);
      }
      signal?.addEventListener("abort", abort, { once: true });
      queue.push(job);
      dispatch();
    });
  }

  return {
    load(input, options = {}) {
      const { timeoutMs = settings.timeoutMs, ...limits } = options.limits ?? {};
      const task: ParseTask = {
        kind: "document",
        input: { ...input, bytes: ownBytes(input.bytes) },
        limits: { maxCharacters: settings.maxCharacters, ...limits },
      };
      return submit(task, Math.min(timeoutMs, settings.timeoutMs), options.signal);
    },
    readHtml(html, url, options = {}) {
      return submit({ kind: "html", html, url }, settings.timeoutMs, options.signal);
    },
    split(sections, options) {
      const task: ParseTask = { kind: "split", sections, sourceUrl: options.sourceUrl };
      return submit(task, settings.timeoutMs, options.signal);
    },
    async close() {
      closed = true;
      for (const job of queue.splice(0)) job.reject(new Error("The document parser is closed"));
      const threads = [...busy, ...idle];
      for (const thread of threads) end(thread, new Error("The document parser is closed"));
      await Promise.all(threads.map((thread) => thread.worker.terminate()));
    },
  };
}
