import { test as base, describe, expect } from "vitest";
import { DocumentLoadError } from "../../../src/ingestion/loaders/index.ts";
import { createDocumentParser } from "../../../src/ingestion/parser/document-parser.ts";
import { hostileCsv, hostilePdf } from "../../fixtures/hostile-documents.ts";
import { buildPdf } from "../loaders/pdf-fixture.ts";

// The pool of parser threads itself: what crosses the thread boundary, the limits it enforces by
// terminating a thread, and that it goes on after a thread it ended. (The service's side of it,
// through the API, is test/recovery/hostile-documents.test.ts.)
// The time limit is left long here, so that a busy machine cannot turn a heap refusal into a time
// one; the time-limit test has a parser of its own.
// biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from it
const test = base.extend("parser", { scope: "file" }, async ({}, { onCleanup }) => {
  const parser = createDocumentParser({ maxMemoryMb: 48, timeoutMs: 120_000, threads: 1 });
  onCleanup(() => parser.close());
  return parser;
});

const markdown = (text: string) => ({
  bytes: Buffer.from(text),
  mimeType: "text/markdown" as const,
});

describe("the document parser", () => {
  test("reads a document and a web page in its thread", async ({ parser }) => {
    await expect(parser.load(markdown("# Hours\n\nOpen 9 to 5."))).resolves.toEqual([
      { text: "# Hours\n\nOpen 9 to 5.", metadata: { title: "Hours" } },
    ]);
    await expect(
      parser.readHtml(
        '<title>Hours</title><nav><a href="/faq">FAQ</a></nav><p>Open 9 to 5.</p>',
        "https://example.com/",
      ),
    ).resolves.toEqual({
      title: "Hours",
      markdown: "# Hours\n\nOpen 9 to 5.",
      links: ["/faq"],
    });
  });

  test("leaves the caller's bytes as they were (the thread gets a copy)", async ({ parser }) => {
    const bytes = Buffer.from(buildPdf([["Refunds within 14 days."]]));
    const before = Buffer.from(bytes);
    await parser.load({ bytes, mimeType: "application/pdf" });
    expect(bytes.equals(before)).toBe(true);
  });

  test("keeps a loader's refusal as a DocumentLoadError with its message", async ({ parser }) => {
    const refusal = parser.load({
      bytes: Buffer.from("%PDF-1.4 garbage"),
      mimeType: "application/pdf",
    });
    await expect(refusal).rejects.toBeInstanceOf(DocumentLoadError);
    await expect(refusal).rejects.toThrow("The PDF could not be read: it is corrupt or encrypted");
  });

  test("ends a parse that needs more than its heap, then reads the next document", async ({
    parser,
  }) => {
    // csv-parse holds every row of the file before the first is used.
    const refusal = parser.load({ bytes: hostileCsv(600_000), mimeType: "text/csv" });
    await expect(refusal).rejects.toBeInstanceOf(DocumentLoadError);
    await expect(refusal).rejects.toThrow(
      "The document needs more than 48 MB of memory to read; split it into smaller files",
    );
    await expect(parser.load(markdown("after"))).resolves.toHaveLength(1);
  });

  test("ends a parse at its time limit, and at a shorter one its caller gives", async () => {
    const hurried = createDocumentParser({ maxMemoryMb: 256, timeoutMs: 3_000, threads: 1 });
    try {
      const slow = hostilePdf(40);
      await expect(hurried.load({ bytes: slow, mimeType: "application/pdf" })).rejects.toThrow(
        "Reading the document took longer than 3 s; giving up",
      );
      await expect(
        hurried.load(
          { bytes: slow, mimeType: "application/pdf" },
          { limits: { timeoutMs: 1_000 } },
        ),
      ).rejects.toThrow("Reading the document took longer than 1 s; giving up");
      await expect(hurried.load(markdown("after"))).resolves.toHaveLength(1);
    } finally {
      await hurried.close();
    }
  });

  test("stops a parse whose caller aborts, running or still waiting for the thread", async ({
    parser,
  }) => {
    const running = new AbortController();
    const waiting = new AbortController();
    const slow = { bytes: hostilePdf(40), mimeType: "application/pdf" as const };
    const first = parser.load(slow, { signal: running.signal });
    const second = parser.load(markdown("queued"), { signal: waiting.signal });
    waiting.abort(new Error("no longer wanted"));
    await expect(second).rejects.toThrow("no longer wanted");
    running.abort(new Error("the job stopped"));
    await expect(first).rejects.toThrow("the job stopped");
    await expect(parser.load(markdown("after"))).resolves.toHaveLength(1);
  });

  test("refuses work once closed", async () => {
    const closing = createDocumentParser({ maxMemoryMb: 48, timeoutMs: 3_000, threads: 1 });
    await closing.load(markdown("warm"));
    await closing.close();
    await expect(closing.load(markdown("late"))).rejects.toThrow("The document parser is closed");
  });
});
