import { answerTasks } from "../../lib/thread-pool.ts";
import { loadDocument } from "../loaders/index.ts";
import { prepareChunks } from "../pipeline.ts";
import type { ParseTask } from "./parser-protocol.ts";

// The entry of a parser thread (document-parser.ts starts it): it reads one task at a time
// and posts its result back. Everything a hostile document can exhaust, this thread's heap
// and its time, is bounded by the pool that started it, which terminates it when either runs out.

async function run(task: ParseTask): Promise<unknown> {
  if (task.kind === "document") return loadDocument(task.input, task.limits);
  if (task.kind === "split") return prepareChunks(task.sections, { sourceUrl: task.sourceUrl });
  // linkedom, Readability and turndown load with the first page, as the file loaders do.
  const { readHtmlPage } = await import("../loaders/loader-html.ts");
  return readHtmlPage(task.html, task.url);
}

answerTasks(run);
