/** The upload MIME types the spec accepts; every detected file type is one of these. */
export const ACCEPTED_MIME_TYPES = [
  "text/csv",
  "text/plain",
  "text/markdown",
  "application/pdf",
  "application/json",
  "application/vnd.openxmlformats-officedocument.presentationml.presentation",
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
] as const;

export type AcceptedMime = (typeof ACCEPTED_MIME_TYPES)[number];

export const PPTX_MIME =
  "application/vnd.openxmlformats-officedocument.presentationml.presentation";
export const DOCX_MIME = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";
export const XLSX_MIME = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

/** One unit of loaded text with where it came from; text is Markdown-ish (`#` headings, one table row per line). */
export type LoadedSection = {
  text: string;
  metadata: { page?: number; slide?: number; sheet?: string; title?: string; heading?: string };
};

export type LoadLimits = {
  /** Cap on the total uncompressed size of an OOXML archive or a PDF's streams (default 100 MiB). */
  maxUncompressedBytes?: number;
  /** Cap on PDF pages and PPTX slides (default 5,000); a longer document is refused, not cut. */
  maxPages?: number;
  /** Cap on the characters of extracted text (default 20 million); a larger document is refused. */
  maxCharacters?: number;
  /**
   * Wall-clock limit of the parse, enforced by the document parser, which terminates the thread
   * (default: the parser's, DOCUMENT_PARSER_TIMEOUT_MS); a caller may only shorten it.
   */
  timeoutMs?: number;
};

export type ResolvedLoadLimits = Required<Omit<LoadLimits, "timeoutMs">>;

export const DEFAULT_LOAD_LIMITS: ResolvedLoadLimits = {
  maxUncompressedBytes: 100 * 1024 * 1024,
  maxPages: 5_000,
  maxCharacters: 20_000_000,
};

export type LoadInput = { bytes: Uint8Array; mimeType: AcceptedMime; fileName?: string };
