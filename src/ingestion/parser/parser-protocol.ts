import type { LoadInput, LoadLimits } from "../loaders/loader-types.ts";

/** What the service asks a parser thread to read: one document, or one web page's HTML. */
export type ParseTask =
  | { kind: "document"; input: LoadInput; limits: LoadLimits }
  | { kind: "html"; html: string; url: string };

/** One message to a thread: a task and the number its answer carries back. */
export type ParseRequest = { id: number; task: ParseTask };

/** A thread's answer; an error crosses the thread boundary as its name and message. */
export type ParseResponse =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; error: { name: string; message: string } };
