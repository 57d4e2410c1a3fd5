/** What the model is shown of a retrieved passage: where it comes from, and its text. */
export type PromptPassage = { source: string; text: string };

const escapeText = (value: string) =>
  value.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
const escapeAttribute = (value: string) => escapeText(value).replaceAll('"', "&quot;");
const unescapeMarkup = (value: string) =>
  value
    .replaceAll("&quot;", '"')
    .replaceAll("&gt;", ">")
    .replaceAll("&lt;", "<")
    .replaceAll("&amp;", "&");

/**
 * The block the query path puts in the system prompt. Passage text is escaped, so a document that
 * contains `</passage>` or `<knowledge>` cannot end the block or forge a passage.
 */
export function formatKnowledgeBlock(passages: ReadonlyArray<PromptPassage>): string {
  const entries = passages.map(
    (passage, index) =>
      `<passage index="${index + 1}" source="${escapeAttribute(passage.source)}">\n${escapeText(passage.text)}\n</passage>`,
  );
  return ["<knowledge>", ...entries, "</knowledge>"].join("\n");
}

const BLOCK = /<knowledge>([\s\S]*?)<\/knowledge>/g;
const PASSAGE = /<passage\b([^>]*)>\n?([\s\S]*?)\n?<\/passage>/g;
const SOURCE = /\bsource="([^"]*)"/;

/** The passages of every knowledge block in a system prompt, in order (inverse of the formatter). */
export function parseKnowledgeBlock(systemText: string): PromptPassage[] {
  const passages: PromptPassage[] = [];
  for (const block of systemText.matchAll(BLOCK)) {
    for (const passage of (block[1] ?? "").matchAll(PASSAGE)) {
      const source = SOURCE.exec(passage[1] ?? "")?.[1] ?? "";
      passages.push({ source: unescapeMarkup(source), text: unescapeMarkup(passage[2] ?? "") });
    }
  }
  return passages;
}
