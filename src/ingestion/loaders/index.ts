import { createLoadBudget, type LoadBudget } from "./load-budget.ts";
import { loadCsv } from "./loader-csv.ts";
import { loadDocx } from "./loader-docx.ts";
import { loadJson } from "./loader-json.ts";
import { loadPdf } from "./loader-pdf.ts";
import { loadPptx } from "./loader-pptx.ts";
import { loadMarkdown, loadPlainText } from "./loader-text.ts";
import {
  type AcceptedMime,
  DEFAULT_LOAD_LIMITS,
  type LoadedSection,
  type LoadInput,
  type LoadLimits,
} from "./loader-types.ts";
import { loadXlsx } from "./loader-xlsx.ts";

export { detectFileType } from "./file-type.ts";
export { DocumentLoadError, UnsupportedFileTypeError } from "./loader-errors.ts";
export { htmlToMarkdown } from "./loader-html.ts";
export {
  ACCEPTED_MIME_TYPES,
  type AcceptedMime,
  type LoadedSection,
  type LoadInput,
  type LoadLimits,
} from "./loader-types.ts";

type Loader = (bytes: Uint8Array, budget: LoadBudget) => Promise<LoadedSection[]>;

const LOADERS: Readonly<Record<AcceptedMime, Loader>> = {
  "text/csv": loadCsv,
  "text/plain": loadPlainText,
  "text/markdown": loadMarkdown,
  "application/pdf": loadPdf,
  "application/json": loadJson,
  "application/vnd.openxmlformats-officedocument.presentationml.presentation": loadPptx,
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document": loadDocx,
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": loadXlsx,
};

/**
 * Turns an uploaded file (already typed by `detectFileType`) into text sections. Throws
 * DocumentLoadError with a message fit for the datasource's error field when the file is
 * corrupt, encrypted, a zip bomb, or over a limit.
 */
export async function loadDocument(
  input: LoadInput,
  limits: LoadLimits = {},
): Promise<LoadedSection[]> {
  const budget = createLoadBudget({ ...DEFAULT_LOAD_LIMITS, ...definedOnly(limits) });
  return LOADERS[input.mimeType](input.bytes, budget);
}

// `{ maxPages: undefined }` from a config object must not erase the default.
function definedOnly(limits: LoadLimits): LoadLimits {
  return Object.fromEntries(Object.entries(limits).filter(([, value]) => value !== undefined));
}
