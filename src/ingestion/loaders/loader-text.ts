import type { LoadBudget } from "./load-budget.ts";
import { DocumentLoadError } from "./loader-errors.ts";
import type { LoadedSection } from "./loader-types.ts";
import { decodeText, normalizeWhitespace } from "./text-decoding.ts";

/** Plain text as one section. */
export async function loadPlainText(
  bytes: Uint8Array,
  budget: LoadBudget,
): Promise<LoadedSection[]> {
  const text = normalizeWhitespace(decodeOrFail(bytes, "text file"));
  return text === "" ? [] : [budget.add({ text, metadata: {} })];
}

/**
 * Markdown as one section, setext headings rewritten as `#` headings; the title is the front
 * matter's `title:` or else the first heading.
 */
export async function loadMarkdown(
  bytes: Uint8Array,
  budget: LoadBudget,
): Promise<LoadedSection[]> {
  const source = decodeOrFail(bytes, "Markdown file").replace(/\r\n?/g, "\n");
  const frontMatter = source.match(/^---\n[\s\S]*?\n---(?:\n|$)/)?.[0] ?? "";
  const body = toAtxHeadings(source.slice(frontMatter.length));
  const text = normalizeWhitespace(frontMatter + body);
  if (text === "") return [];
  const title =
    unquote(frontMatter.match(/^title:[ \t]*(.+?)[ \t]*$/m)?.[1]) ??
    body.match(/^#{1,6}[ \t]+(.+?)[ \t#]*$/m)?.[1];
  return [budget.add({ text, metadata: title ? { title } : {} })];
}

/** Decodes UTF-8 or BOM-marked UTF-16 text, or refuses the file as not being text. */
export function decodeOrFail(bytes: Uint8Array, kind: string): string {
  const text = decodeText(bytes);
  if (text === null) {
    throw new DocumentLoadError(`The ${kind} is not valid UTF-8 or UTF-16 text`);
  }
  return text;
}

// The splitter downstream recognises headings by their leading "#"; "Title\n=====" is the same
// heading written the other way. Fenced code is left alone.
function toAtxHeadings(markdown: string): string {
  const lines = markdown.split("\n");
  let inFence = false;
  for (let index = 0; index < lines.length - 1; index++) {
    const line = lines[index]!;
    if (/^\s*(```|~~~)/.test(line)) inFence = !inFence;
    if (inFence || !/^[^\s#>\-*+|`~]/.test(line)) continue;
    const underline = lines[index + 1]!;
    const level = /^=+[ \t]*$/.test(underline) ? "#" : /^-+[ \t]*$/.test(underline) ? "##" : "";
    if (level === "") continue;
    lines.splice(index, 2, `${level} ${line.trim()}`);
  }
  return lines.join("\n");
}

function unquote(value: string | undefined): string | undefined {
  const unquoted = value?.replace(/^(["'])(.*)\1$/, "$2").trim();
  return unquoted ? unquoted : undefined;
}
