// One document read once, in a process of its own, by bench/ingest-memory.ts: `in-process` calls
// the loaders on the main thread (as the service did before it had parser threads), `thread`
// through the document parser (a worker thread). Prints one JSON line: the peak RSS of the whole
// process above what it held before the read (the kernel's high-water mark, VmHWM, reset first),
// the main thread's heap growth and the longest its event loop was blocked.
// Run as `node --import tsx bench/lib/parse-probe.mjs <mode> <file> <mime> <warm-up file>`.

import { readFileSync, writeFileSync } from "node:fs";

const [mode, file, mimeType, warmUpFile] = process.argv.slice(2);
const { loadDocument } = await import("../../src/ingestion/loaders/index.ts");
const { readHtmlPage } = await import("../../src/ingestion/loaders/loader-html.ts");
const { createDocumentParser } = await import("../../src/ingestion/parser/document-parser.ts");

const MB = 1024 * 1024;
const status = (field) =>
  Number(
    new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(readFileSync("/proc/self/status", "utf8"))[1],
  ) * 1024;

const parser =
  mode === "thread"
    ? createDocumentParser({ maxMemoryMb: 8192, timeoutMs: 600_000, threads: 1 })
    : null;
// A web page is read as its HTML, as the web sources read it; the rest as uploads.
const read = async (bytes) => {
  if (mimeType === "text/html") {
    const html = Buffer.from(bytes).toString("utf8");
    const page = parser
      ? await parser.readHtml(html, "https://example.com/")
      : readHtmlPage(html, "https://example.com/");
    return [{ text: page.markdown }];
  }
  return parser ? parser.load({ bytes, mimeType }) : loadDocument({ bytes, mimeType });
};

// The parser modules load with the first document of their type, in the thread or here.
await read(readFileSync(warmUpFile));
const bytes = readFileSync(file);
globalThis.gc?.();
const baselineRss = status("VmRSS");
const baselineHeap = process.memoryUsage().heapUsed;
writeFileSync("/proc/self/clear_refs", "5");

let maxDelay = 0;
let peakHeap = baselineHeap;
let last = performance.now();
const sampler = setInterval(() => {
  const now = performance.now();
  maxDelay = Math.max(maxDelay, now - last - 10);
  last = now;
  peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
}, 10);
const started = performance.now();
// A document over a limit is refused: how long and how much memory that took is what counts.
const outcome = await read(bytes).then(
  (sections) => ({ sections, refused: null }),
  (error) => ({ sections: [], refused: error.message }),
);
const seconds = (performance.now() - started) / 1000;
// A read that blocks the loop to its end delays the next tick past this point: count it here.
maxDelay = Math.max(maxDelay, performance.now() - last - 10);
clearInterval(sampler);
peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
const peakRss = status("VmHWM");
process.stdout.write(
  `${JSON.stringify({
    seconds,
    characters: outcome.sections.reduce((sum, section) => sum + section.text.length, 0),
    refused: outcome.refused,
    peakRssMb: (peakRss - baselineRss) / MB,
    mainHeapMb: (peakHeap - baselineHeap) / MB,
    maxDelayMs: Math.max(maxDelay, 0),
  })}\n`,
);
await parser?.close();
