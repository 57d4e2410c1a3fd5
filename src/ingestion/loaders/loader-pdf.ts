import { getDocumentProxy } from "unpdf";
import type { LoadBudget } from "./load-budget.ts";
import { DocumentLoadError } from "./loader-errors.ts";
import type { LoadedSection } from "./loader-types.ts";
import { assertSafePdf } from "./pdf-guard.ts";
import { normalizeWhitespace } from "./text-decoding.ts";

type PdfDocument = Awaited<ReturnType<typeof getDocumentProxy>>;

/**
 * One section per page that has text, with its 1-based page number. Pages are read one at a time
 * (unpdf's extractText reads them all at once), and each page's text as a stream, so that a page
 * whose content stream inflates to hundreds of megabytes is refused at the character limit, not
 * after pdf.js has decoded all of it. A scanned PDF without a text layer yields no sections.
 */
export async function loadPdf(bytes: Uint8Array, budget: LoadBudget): Promise<LoadedSection[]> {
  assertSafePdf(bytes, budget.limits.maxUncompressedBytes);
  let pdf: PdfDocument;
  try {
    // pdf.js takes ownership of (detaches) the buffer it is given, so it gets a copy; and it
    // refuses a Node Buffer (whose slice() is a view, not a copy), so the copy is a plain Uint8Array.
    pdf = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0 });
  } catch (error) {
    throw unreadable(error);
  }
  try {
    budget.checkPages(pdf.numPages, "pages");
    const title = await documentTitle(pdf);
    const sections: LoadedSection[] = [];
    for (let pageNumber = 1; pageNumber <= pdf.numPages; pageNumber++) {
      const text = await pageText(pdf, pageNumber, budget);
      if (text === "") continue;
      sections.push(
        budget.add({ text, metadata: { page: pageNumber, ...(title ? { title } : {}) } }),
      );
    }
    return sections;
  } finally {
    await pdf.destroy().catch(() => undefined);
  }
}

async function pageText(pdf: PdfDocument, pageNumber: number, budget: LoadBudget) {
  try {
    const page = await pdf.getPage(pageNumber);
    // pdf.js sends the text in batches, and waits for them to be read before evaluating more of
    // the page: a reader that stops reading stops it (pdf.destroy() then ends it for good).
    const reader = page.streamTextContent().getReader();
    const parts: string[] = [];
    let length = 0;
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      for (const item of value.items) {
        if (!("str" in item)) continue;
        const text = item.hasEOL ? `${item.str}\n` : item.str;
        parts.push(text);
        length += text.length;
      }
      budget.assertFits(length);
    }
    page.cleanup();
    return normalizeWhitespace(parts.join("").replace(/[^\S\n]+/g, " "));
  } catch (error) {
    if (error instanceof DocumentLoadError) throw error;
    throw new DocumentLoadError(`The PDF could not be read: page ${pageNumber} is corrupt`);
  }
}

async function documentTitle(pdf: PdfDocument): Promise<string | undefined> {
  try {
    const { info } = await pdf.getMetadata();
    const title = (info as { Title?: unknown } | undefined)?.Title;
    return typeof title === "string" && title.trim() !== "" ? title.trim() : undefined;
  } catch {
    // The title is a nicety; a PDF with broken metadata can still have readable pages.
    return undefined;
  }
}

/** What the user is told; pdf.js's own error stays as the cause, for whoever debugs it. */
function unreadable(error: unknown): DocumentLoadError {
  const name = error instanceof Error ? error.name : "";
  if (name === "PasswordException") {
    return new DocumentLoadError("The PDF is password-protected and cannot be read", {
      cause: error,
    });
  }
  return new DocumentLoadError("The PDF could not be read: it is corrupt or encrypted", {
    cause: error,
  });
}
