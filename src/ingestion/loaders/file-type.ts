import { UnsupportedFileTypeError } from "./loader-errors.ts";
import { type AcceptedMime, DOCX_MIME, PPTX_MIME, XLSX_MIME } from "./loader-types.ts";
import { decodeText } from "./text-decoding.ts";
import { isZip, readZipDirectory, ZipFormatError } from "./zip-directory.ts";
import { MAX_ARCHIVE_ENTRIES } from "./zip-guard.ts";

type TextMime = "text/csv" | "text/plain" | "text/markdown" | "application/json";

// Magic numbers of the binary formats people upload by mistake, so the refusal can say what the
// file is. Anything binary that is not listed is still refused by the text check below.
const BINARY_SIGNATURES: ReadonlyArray<{
  magic: number[];
  offset?: number;
  what: string;
  hint?: string;
}> = [
  { magic: [0x7f, 0x45, 0x4c, 0x46], what: "an executable (ELF)" },
  { magic: [0xfe, 0xed, 0xfa, 0xce], what: "an executable (Mach-O)" },
  { magic: [0xfe, 0xed, 0xfa, 0xcf], what: "an executable (Mach-O)" },
  { magic: [0xce, 0xfa, 0xed, 0xfe], what: "an executable (Mach-O)" },
  { magic: [0xcf, 0xfa, 0xed, 0xfe], what: "an executable (Mach-O)" },
  { magic: [0xca, 0xfe, 0xba, 0xbe], what: "an executable (Mach-O universal or Java class)" },
  { magic: [0x00, 0x61, 0x73, 0x6d], what: "a WebAssembly module" },
  {
    magic: [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1],
    // Office also wraps password-protected .docx/.xlsx/.pptx files in this container.
    what: "a legacy (.doc, .xls, .ppt) or password-protected Office file",
    hint: "save it without a password as .docx, .xlsx or .pptx",
  },
  { magic: [0x89, 0x50, 0x4e, 0x47], what: "a PNG image" },
  { magic: [0xff, 0xd8, 0xff], what: "a JPEG image" },
  { magic: [0x47, 0x49, 0x46, 0x38], what: "a GIF image" },
  { magic: [0x57, 0x45, 0x42, 0x50], offset: 8, what: "a WebP image" },
  { magic: [0x1f, 0x8b], what: "a gzip archive" },
  { magic: [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c], what: "a 7-Zip archive" },
  { magic: [0x52, 0x61, 0x72, 0x21], what: "a RAR archive" },
  { magic: [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00], what: "an xz archive" },
  { magic: [0x28, 0xb5, 0x2f, 0xfd], what: "a zstd archive" },
  { magic: [0x42, 0x5a, 0x68], what: "a bzip2 archive" },
  { magic: [0x75, 0x73, 0x74, 0x61, 0x72], offset: 257, what: "a tar archive" },
];

const DECLARED_TEXT_TYPES: Readonly<Record<string, TextMime>> = {
  "text/plain": "text/plain",
  "text/markdown": "text/markdown",
  "text/x-markdown": "text/markdown",
  "text/csv": "text/csv",
  "text/x-csv": "text/csv",
  "application/csv": "text/csv",
  "application/x-csv": "text/csv",
  "text/comma-separated-values": "text/csv",
  "text/tab-separated-values": "text/csv",
  // Browsers on Windows send this for .csv files when Excel is installed.
  "application/vnd.ms-excel": "text/csv",
  "application/json": "application/json",
  "text/json": "application/json",
};

const EXTENSION_TEXT_TYPES: Readonly<Record<string, TextMime>> = {
  csv: "text/csv",
  tsv: "text/csv",
  md: "text/markdown",
  markdown: "text/markdown",
  mdown: "text/markdown",
  mkd: "text/markdown",
  json: "application/json",
  txt: "text/plain",
};

/**
 * Decides what an upload really is from its bytes; the declared MIME type and file name only
 * choose among the text types. A PDF is a PDF whatever was declared; a ZIP is accepted only when
 * its parts show a Word, PowerPoint or Excel document. Executables (including scripts that start
 * with a `#!` interpreter line: they are programs, not documents), images, archives and other
 * binary content are refused with UnsupportedFileTypeError.
 */
export function detectFileType(
  bytes: Uint8Array,
  declaredMime: string | undefined,
  fileName: string | undefined,
): AcceptedMime {
  if (bytes.byteLength === 0) throw new UnsupportedFileTypeError("The file is empty");
  if (hasPdfHeader(bytes)) return "application/pdf";
  if (isZip(bytes)) return detectOfficeArchive(bytes, declaredMime);
  const binary = BINARY_SIGNATURES.find((signature) =>
    matches(bytes, signature.magic, signature.offset),
  );
  if (binary) throw refuse(binary.what, binary.hint);
  if (isWindowsExecutable(bytes)) throw refuse("an executable (Windows)");
  if (startsWithInterpreterLine(bytes)) throw refuse("an executable script");
  const text = decodeText(bytes);
  if (text === null) throw refuse("binary data, not text");
  return pickTextType(text, declaredMime, fileName);
}

function pickTextType(
  text: string,
  declaredMime: string | undefined,
  fileName: string | undefined,
): AcceptedMime {
  const declared = normalizeMime(declaredMime);
  const byDeclaration = declared.endsWith("+json")
    ? "application/json"
    : DECLARED_TEXT_TYPES[declared];
  const extension = fileName?.toLowerCase().match(/\.([a-z0-9]+)$/)?.[1];
  const byExtension = extension ? EXTENSION_TEXT_TYPES[extension] : undefined;
  // "text/plain" is what many clients send for any text file; a more specific extension refines it.
  const chosen =
    byDeclaration && byDeclaration !== "text/plain" ? byDeclaration : (byExtension ?? "text/plain");
  if (chosen === "application/json" && !parsesAsJson(text)) return "text/plain";
  return chosen;
}

function detectOfficeArchive(bytes: Uint8Array, declaredMime: string | undefined): AcceptedMime {
  let names: string[];
  try {
    names = readZipDirectory(bytes, MAX_ARCHIVE_ENTRIES).map((entry) => entry.name);
  } catch (error) {
    if (error instanceof ZipFormatError && error.reason === "too-many-entries") {
      throw refuse(`a ZIP archive of more than ${MAX_ARCHIVE_ENTRIES} files`);
    }
    // A damaged Office file should end as a load error that says so, not as "wrong type".
    const declared = normalizeMime(declaredMime);
    if (declared === DOCX_MIME || declared === PPTX_MIME || declared === XLSX_MIME) return declared;
    throw refuse("a damaged or unsupported ZIP archive");
  }
  if (names.some((name) => name.startsWith("word/"))) return DOCX_MIME;
  if (names.some((name) => name.startsWith("ppt/"))) return PPTX_MIME;
  if (names.some((name) => name.startsWith("xl/"))) return XLSX_MIME;
  throw refuse("a ZIP archive that is not a Word, PowerPoint or Excel document");
}

// PDF readers accept a header anywhere in the first kilobyte (some generators prepend junk).
function hasPdfHeader(bytes: Uint8Array): boolean {
  const head = bytes.subarray(0, 1024);
  for (
    let index = head.indexOf(0x25);
    index !== -1 && index + 5 <= head.length;
    index = head.indexOf(0x25, index + 1)
  ) {
    if (matches(head, [0x25, 0x50, 0x44, 0x46, 0x2d], index)) return true;
  }
  return false;
}

// "MZ" alone also starts ordinary words; a DOS header always holds NUL bytes right after it.
function isWindowsExecutable(bytes: Uint8Array): boolean {
  return matches(bytes, [0x4d, 0x5a]) && bytes.subarray(0, 64).includes(0);
}

function startsWithInterpreterLine(bytes: Uint8Array): boolean {
  return matches(bytes, [0x23, 0x21, 0x2f]) || matches(bytes, [0x23, 0x21, 0x20, 0x2f]);
}

function matches(bytes: Uint8Array, magic: number[], offset = 0): boolean {
  if (bytes.byteLength < offset + magic.length) return false;
  return magic.every((value, index) => bytes[offset + index] === value);
}

function parsesAsJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

function normalizeMime(mime: string | undefined): string {
  return (mime ?? "").split(";")[0]!.trim().toLowerCase();
}

function refuse(what: string, hint?: string): UnsupportedFileTypeError {
  return new UnsupportedFileTypeError(
    `The file is ${what}, which is not accepted${hint ? `; ${hint}` : ""}`,
  );
}
