import { describe, expect, test } from "vitest";
import { DocumentLoadError, loadDocument } from "../../../src/ingestion/loaders/index.ts";
import { buildPdf } from "./pdf-fixture.ts";

const pdf = (bytes: Uint8Array) => ({ bytes, mimeType: "application/pdf" as const });

describe("PDF loader", () => {
  test("returns one section per page with its page number", async () => {
    const bytes = buildPdf(
      [
        ["Warranty terms", "Devices are covered for two years."],
        [],
        ["Returns are accepted within thirty days."],
      ],
      { title: "Customer handbook" },
    );
    const sections = await loadDocument(pdf(bytes));
    expect(sections).toEqual([
      {
        text: "Warranty terms\nDevices are covered for two years.",
        metadata: { page: 1, title: "Customer handbook" },
      },
      {
        text: "Returns are accepted within thirty days.",
        metadata: { page: 3, title: "Customer handbook" },
      },
    ]);
  });

  test("leaves the caller's bytes intact (pdf.js detaches the buffer it is given)", async () => {
    const bytes = buildPdf([["Hello"]]);
    await loadDocument(pdf(bytes));
    expect(bytes.byteLength).toBeGreaterThan(0);
    expect(new TextDecoder().decode(bytes.subarray(0, 5))).toBe("%PDF-");
  });

  test("refuses a truncated PDF with a DocumentLoadError", async () => {
    const bytes = buildPdf([["Page one"], ["Page two"]]);
    const truncated = bytes.subarray(0, Math.floor(bytes.length / 2));
    const attempt = loadDocument(pdf(truncated));
    await expect(attempt).rejects.toBeInstanceOf(DocumentLoadError);
    await expect(attempt).rejects.toThrow("The PDF could not be read: it is corrupt or encrypted");
  });

  test("refuses a PDF that is only a header followed by garbage", async () => {
    const bytes = new TextEncoder().encode(`%PDF-1.7\n${"garbage ".repeat(200)}`);
    await expect(loadDocument(pdf(bytes))).rejects.toThrow(DocumentLoadError);
  });

  test("says so when the PDF is password-protected", async () => {
    const bytes = buildPdf([["Secret"]], { encrypted: true });
    await expect(loadDocument(pdf(bytes))).rejects.toThrow(
      "The PDF is password-protected and cannot be read",
    );
  });

  test("refuses a PDF with more pages than the limit instead of cutting it", async () => {
    const bytes = buildPdf([["one"], ["two"], ["three"]]);
    await expect(loadDocument(pdf(bytes), { maxPages: 2 })).rejects.toThrow(
      "The document has 3 pages; the limit is 2",
    );
    await expect(loadDocument(pdf(bytes), { maxPages: 3 })).resolves.toHaveLength(3);
  });

  test("refuses a PDF with more text than the character limit", async () => {
    const bytes = buildPdf([["a".repeat(40)], ["b".repeat(40)]]);
    await expect(loadDocument(pdf(bytes), { maxCharacters: 60 })).rejects.toThrow(
      "more than 60 characters",
    );
  });
});
