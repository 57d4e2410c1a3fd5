import { createLoadBudget, type LoadBudget } from "./load-budget.ts";
import { loadJson } from "./loader-json.ts";
import { loadMarkdown, loadPlainText } from "./loader-text.ts";
import {
  type AcceptedMime,
  DEFAULT_LOAD_LIMITS,
  type LoadedSection,
  type LoadInput,
  type LoadLimits,
} from "./loader-types.ts";

export { detectFileType } from "./file-type.ts";
export { DocumentLoadError, UnsupportedFileTypeError } from "./loader-errors.ts";
export {
  ACCEPTED_MIME_TYPES,
  type AcceptedMime,
  type LoadedSection,
  type LoadInput,
  type LoadLimits,
} from "./loader-types.ts";

type Loader = (bytes: Uint8Array, budget: LoadBudget) => Promise<LoadedSection[]>;

// The loaders of binary and tabular formats are imported on their first file: their parsers
// (exceljs, mammoth, unpdf, jszip, turndown… when it was measured) took about 1 s of CPU to
// load, at every start of every process, most of which never read such a file. Node keeps each
// module once loaded.
const LOADERS: Readonly<Record<AcceptedMime, Loader>> = {
  "text/csv": async (bytes, budget) => (await import("./loader-csv.ts")).loadCsv(bytes, budget),
  "text/plain": loadPlainText,
  "text/markdown": loadMarkdown,
  "application/pdf": async (bytes, budget) =>
    (await import("./loader-pdf.ts")).loadPdf(bytes, budget),
  "application/json": loadJson,
  "application/vnd.openxmlformats-officedocument.presentationml.presentation": async (
    bytes,
    budget,
  ) => (await import("./loader-pptx.ts")).loadPptx(bytes, budget),
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document": async (
    bytes,
    budget,
  ) => (await import("./loader-docx.ts")).loadDocx(bytes, budget),
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": async (bytes, budget) =>
    (await import("./loader-xlsx.ts")).loadXlsx(bytes, budget),
};

/**
 * Turns an uploaded file (already typed by `detectFileType`) into text sections. Throws
 * DocumentLoadError with a message fit for the datasource's error field when the file is
 * corrupt, encrypted, a zip bomb, or over a limit. It runs in a parser thread
 * (`DocumentParser.load`), which bounds its memory and time; nothing else should call it.
 */
export async function loadDocument(
  input: LoadInput,
  limits: Omit<LoadLimits, "timeoutMs"> = {},
): Promise<LoadedSection[]> {
  const budget = createLoadBudget({ ...DEFAULT_LOAD_LIMITS, ...definedOnly(limits) });
  return LOADERS[input.mimeType](input.bytes, budget);
}

// `{ maxPages: undefined }` from a config object must not erase the default.
function definedOnly(limits: LoadLimits): LoadLimits {
  return Object.fromEntries(Object.entries(limits).filter(([, value]) => value !== undefined));
}
