import { constants, inflateSync } from "node:zlib";
import { DocumentLoadError } from "./loader-errors.ts";
import { formatMiB } from "./zip-guard.ts";

// pdf.js decodes a page's whole content stream before it reads the first operator: a 2 MB file
// whose one FlateDecode stream inflates to 600 MB took 1.4 GB of memory outside the JavaScript
// heap (so past any heap limit) before the first character of text. So, like the OOXML archive
// guard, the compressed streams are inflated first into throw-away buffers, with what is left of
// the cap as a hard output limit. Images are skipped: text extraction never decodes them, and a
// scanned page legitimately inflates to tens of megabytes.

const STREAM_KEYWORD = /stream(?:\r\n|\n|\r)/g;
const END_KEYWORD = "endstream";
// How far back from `stream` the object's dictionary is looked for.
const DICTIONARY_WINDOW = 2_048;

/**
 * Refuses a PDF whose compressed streams (other than images) inflate beyond `maxUncompressedBytes`
 * in total. Streams are found by their `stream` keyword and sized by a direct `/Length` or the
 * next `endstream`; one that is not zlib data (another filter, or none) is not counted.
 */
export function assertSafePdf(bytes: Uint8Array, maxUncompressedBytes: number): void {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const text = buffer.toString("latin1");
  let inflatedTotal = 0;
  for (const match of text.matchAll(STREAM_KEYWORD)) {
    const keywordAt = match.index;
    if (keywordAt >= 3 && text.slice(keywordAt - 3, keywordAt) === "end") continue;
    const dictionary = dictionaryBefore(text, keywordAt);
    if (!/\/FlateDecode\b|\/Fl\b/.test(dictionary) || /\/Subtype\s*\/Image\b/.test(dictionary)) {
      continue;
    }
    const start = keywordAt + match[0].length;
    const data = buffer.subarray(start, start + streamLength(text, dictionary, start));
    const left = maxUncompressedBytes - inflatedTotal;
    inflatedTotal += inflatedSize(data, left);
    if (inflatedTotal > maxUncompressedBytes) {
      throw new DocumentLoadError(
        `The PDF's content expands beyond ${formatMiB(maxUncompressedBytes)}; refusing a possible decompression bomb`,
      );
    }
  }
}

/** The text between the object's `obj` keyword (or the window's start) and `stream`. */
function dictionaryBefore(text: string, keywordAt: number): string {
  const window = text.slice(Math.max(0, keywordAt - DICTIONARY_WINDOW), keywordAt);
  const objectAt = window.lastIndexOf(" obj");
  return objectAt >= 0 ? window.slice(objectAt) : window;
}

function streamLength(text: string, dictionary: string, start: number): number {
  const direct = /\/Length\s+(\d+)(?!\s+\d+\s+R)/.exec(dictionary);
  if (direct) return Number(direct[1]);
  const end = text.indexOf(END_KEYWORD, start);
  return (end < 0 ? text.length : end) - start;
}

/** Bytes the zlib data inflates to, counted up to `limit` + 1; 0 for data that is not zlib. */
function inflatedSize(data: Buffer, limit: number): number {
  try {
    // A stream cut short (or with trailing bytes) still counts what it inflates to.
    return inflateSync(data, {
      maxOutputLength: Math.max(1, limit + 1),
      finishFlush: constants.Z_SYNC_FLUSH,
    }).byteLength;
  } catch (error) {
    if (error instanceof RangeError) return limit + 1;
    return 0;
  }
}
