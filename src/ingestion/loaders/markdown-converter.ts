import TurndownService from "turndown";
import { normalizeWhitespace } from "./text-decoding.ts";

// The DOM handed to turndown's rules: turndown parses strings with its own DOM (domino), and the
// project compiles without the DOM lib, so the few members used are declared here.
type ElementLike = {
  nodeName: string;
  textContent: string | null;
  getAttribute(name: string): string | null;
  querySelectorAll(selectors: string): ArrayLike<ElementLike>;
};

/** An HTML-to-Markdown converter for indexing: `#` headings, fenced code, tables as rows, no images. */
export function createMarkdownConverter(): (html: string) => string {
  const service = new TurndownService({
    headingStyle: "atx",
    codeBlockStyle: "fenced",
    bulletListMarker: "-",
    emDelimiter: "*",
  });
  // Backslash escapes ("file\_name", "1\.") would end up in the indexed text and hurt matching.
  service.escape = (text: string) => text;
  service.remove(["script", "style", "noscript", "template", "iframe", "svg"]);
  // Turndown's own image rule outranks remove(); images carry no text to index.
  service.addRule("drop-images", { filter: "img", replacement: () => "" });
  // Links within the page (footnote markers, "↑" back-references) lead nowhere once
  // the text is a chunk; their text is kept, the "↑" arrow dropped.
  service.addRule("in-page-links-as-text", {
    filter: (node) => {
      const element = node as unknown as ElementLike;
      return element.nodeName === "A" && (element.getAttribute("href") ?? "").startsWith("#");
    },
    replacement: (content) => (content.trim() === "↑" ? "" : content),
  });
  service.addRule("table-as-rows", {
    filter: "table",
    replacement: (_content, node) => `\n\n${tableToLines(node as unknown as ElementLike)}\n\n`,
  });
  return (html) => normalizeWhitespace(service.turndown(html));
}

/** Renders a table like a CSV sheet: the first row is the header, then one "Header: value | …" line per row. */
function tableToLines(table: ElementLike): string {
  const rows = Array.from(table.querySelectorAll("tr"), (row) =>
    Array.from(row.querySelectorAll("th, td"), (cell) => collapse(cell.textContent ?? "")),
  ).filter((cells) => cells.some((cell) => cell !== ""));
  const [header, ...body] = rows;
  if (!header) return "";
  if (body.length === 0) return header.join(" | ");
  return body.map((cells) => renderRecord(header, cells)).join("\n");
}

/** One record as "Header: value | Header: value", skipping empty values; a value without a header stands alone. */
export function renderRecord(header: readonly string[], values: readonly string[]): string {
  const parts: string[] = [];
  values.forEach((value, index) => {
    if (value === "") return;
    const name = header[index];
    parts.push(name ? `${name}: ${value}` : value);
  });
  return parts.join(" | ");
}

function collapse(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}
