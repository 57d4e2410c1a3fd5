const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });
const utf16le = new TextDecoder("utf-16le", { fatal: true, ignoreBOM: false });
const utf16be = new TextDecoder("utf-16be", { fatal: true, ignoreBOM: false });

/**
 * Decodes bytes as text: UTF-8 (BOM optional) or UTF-16 with a BOM, the encodings editors and
 * spreadsheet exports actually produce. Returns null for anything else, including text with NUL
 * bytes or mostly control characters, which is binary in disguise.
 */
export function decodeText(bytes: Uint8Array): string | null {
  let text: string;
  try {
    if (bytes[0] === 0xff && bytes[1] === 0xfe) text = utf16le.decode(bytes);
    else if (bytes[0] === 0xfe && bytes[1] === 0xff) text = utf16be.decode(bytes);
    else text = utf8.decode(bytes);
  } catch {
    return null;
  }
  return looksLikeText(text) ? text : null;
}

// Tab, line feed, form feed and carriage return are ordinary in text files; other C0 controls
// are rare, so more than a handful of them per thousand characters means binary content.
function looksLikeText(text: string): boolean {
  const sample = text.length > 65_536 ? text.slice(0, 65_536) : text;
  let controls = 0;
  for (let index = 0; index < sample.length; index++) {
    const code = sample.charCodeAt(index);
    if (code === 0) return false;
    if (code < 32 && code !== 9 && code !== 10 && code !== 12 && code !== 13) controls++;
  }
  return controls <= sample.length / 100;
}

/** Unix line endings, no trailing whitespace on lines, at most one blank line in a row. */
export function normalizeWhitespace(text: string): string {
  return text
    .replace(/\r\n?/g, "\n")
    .replace(/[ \t]+$/gm, "")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}
