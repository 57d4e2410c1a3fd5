import type { Logger } from "../../lib/logger.ts";
import { createThreadPool, ownBytes, threadEntry } from "../../lib/thread-pool.ts";
import { DocumentLoadError } from "../loaders/loader-errors.ts";
import type { HtmlPage } from "../loaders/loader-html.ts";
import type { LoadedSection, LoadInput, LoadLimits } from "../loaders/loader-types.ts";
import type { PreparedChunk } from "../pipeline.ts";
import type { ParseTask } from "./parser-protocol.ts";

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

/** Errors keep their kind across the thread boundary: a DocumentLoadError is the document's fault. */
function errorFrom({ name, message }: { name: string; message: string }): Error {
  if (name === "DocumentLoadError") return new DocumentLoadError(message);
  const error = new Error(message);
  error.name = name;
  return error;
}

export function createDocumentParser(
  settings: DocumentParserSettings,
  logger?: Logger,
): DocumentParser {
  const pool = createThreadPool<ParseTask>({
    entry: threadEntry(import.meta.url, "parser-thread"),
    threads: settings.threads,
    maxMemoryMb: settings.maxMemoryMb,
    idleMs: settings.idleMs,
    taskName: "a document parse",
    logger,
    failures: {
      outOfMemory: (maxMemoryMb) =>
        new DocumentLoadError(
          `The document needs more than ${maxMemoryMb} MB of memory to read; split it into smaller files`,
        ),
      outOfTime: (timeoutMs) =>
        new DocumentLoadError(
          `Reading the document took longer than ${Math.round(timeoutMs / 1000)} s; giving up`,
        ),
      stopped: () => new DocumentLoadError("The document could not be read: its parser stopped"),
      closed: () => new Error("The document parser is closed"),
      fromThread: errorFrom,
    },
  });

  return {
    load(input, options = {}) {
      const { timeoutMs = settings.timeoutMs, ...limits } = options.limits ?? {};
      const bytes = ownBytes(input.bytes);
      const task: ParseTask = {
        kind: "document",
        input: { ...input, bytes },
        limits: { maxCharacters: settings.maxCharacters, ...limits },
      };
      return pool.run(task, {
        timeoutMs: Math.min(timeoutMs, settings.timeoutMs),
        signal: options.signal,
        transfer: [bytes.buffer as ArrayBuffer],
      });
    },
    readHtml(html, url, options = {}) {
      const task: ParseTask = { kind: "html", html, url };
      return pool.run(task, { timeoutMs: settings.timeoutMs, signal: options.signal });
    },
    split(sections, options) {
      const task: ParseTask = { kind: "split", sections, sourceUrl: options.sourceUrl };
      return pool.run(task, { timeoutMs: settings.timeoutMs, signal: options.signal });
    },
    close: () => pool.close(),
  };
}
