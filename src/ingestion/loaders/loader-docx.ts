import mammoth from "mammoth";
import type { LoadBudget } from "./load-budget.ts";
import { DocumentLoadError } from "./loader-errors.ts";
import type { LoadedSection } from "./loader-types.ts";
import { createMarkdownConverter } from "./markdown-converter.ts";
import { assertSafeArchive } from "./zip-guard.ts";

/** A Word document as one Markdown section: headings as `#`, lists, tables as header-labelled rows. */
export async function loadDocx(bytes: Uint8Array, budget: LoadBudget): Promise<LoadedSection[]> {
  await assertSafeArchive(bytes, budget.limits.maxUncompressedBytes, "DOCX");
  // Images carry no text to index; answering without reading them keeps them compressed.
  const skipImages = mammoth.images.imgElement(async () => ({ src: "" }));
  let html: string;
  try {
    const result = await mammoth.convertToHtml(
      { buffer: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) },
      { convertImage: skipImages, externalFileAccess: false },
    );
    html = result.value;
  } catch {
    throw new DocumentLoadError("The DOCX could not be read: it is corrupt or not a Word document");
  }
  const markdown = createMarkdownConverter()(html);
  if (markdown === "") return [];
  const title = markdown.match(/^#{1,6} (.+)$/m)?.[1]?.trim();
  return [budget.add({ text: markdown, metadata: title ? { title } : {} })];
}
