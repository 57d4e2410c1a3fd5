/**
 * The safe subset of markdown that answers are shown with: headings, paragraphs and line breaks,
 * bold, italic, inline code, fenced code blocks, lists, and links to http(s) and mailto URLs.
 * Everything else stays text. Nodes are built with createElement and text nodes only: nothing
 * the model writes is ever parsed as HTML, so `<img onerror=…>` shows as the characters it is.
 */

const LINK_PROTOCOLS = new Set(["http:", "https:", "mailto:"]);
const FENCE = /^ {0,3}(```|~~~)/;
const HEADING = /^ {0,3}(#{1,6})\s+(.*?)(?:\s+#+)?\s*$/;
const ITEM = /^(\s*)(?:([-*+])|(\d{1,9})[.)])\s+(.*)$/;
// Sticky: matched where the inline parser stands, without copying the rest of the line.
const LINK = /\[([^\]]+)\]\(\s*((?:[^()\s]|\([^()\s]*\))+)(?:\s+"[^"]*")?\s*\)/y;

type Item = { indent: number; ordered: boolean; text: string; number: number };

const item = (line: string): Item | null => {
  const match = ITEM.exec(line);
  if (!match) return null;
  return {
    indent: (match[1] ?? "").replace(/\t/g, "    ").length,
    ordered: match[2] === undefined,
    number: Number(match[3] ?? 1),
    text: match[4] ?? "",
  };
};

/** The href of a link the widget may show: absolute http(s) or mailto, else null. */
function safeHref(url: string): string | null {
  try {
    const parsed = new URL(url);
    return LINK_PROTOCOLS.has(parsed.protocol) ? parsed.href : null;
  } catch {
    return null;
  }
}

/**
 * Where `marker` (`*`, `**`, `_`, `__`) closes from `from` on. A run of the marker's character
 * counts whole: in `*a **b** c*` the `*` closes at the end, not inside `**`; a run of three
 * closes with its last characters (`***x***`). Never after a space (`a * b * c`).
 */
function closing(text: string, marker: string, from: number): number {
  const char = marker[0] as string;
  for (let at = from + 1; at < text.length; at++) {
    if (text[at] !== char) continue;
    let end = at;
    while (text[end] === char) end++;
    const close = end - at === marker.length || end - at === 3 ? end - marker.length : -1;
    // `_` closes only at the end of a word: snake_case_names stay as they are.
    const wordEnd = char === "*" || !/\w/.test(text[end] ?? "");
    if (close >= 0 && !/\s/.test(text[at - 1] as string) && wordEnd) return close;
    at = end;
  }
  return -1;
}

/** The inline markdown of one line or heading: text nodes, strong, em, code and links. */
function inline(text: string, into: Node): void {
  let plain = "";
  const flush = () => {
    if (plain) into.appendChild(document.createTextNode(plain));
    plain = "";
  };
  const wrap = (tag: string, content: string) => {
    flush();
    const node = into.appendChild(document.createElement(tag));
    if (tag === "code") node.textContent = content;
    else inline(content, node);
  };
  let at = 0;
  while (at < text.length) {
    const char = text[at] as string;
    if (char === "\\" && /[!-/:-@[-`{-~]/.test(text[at + 1] ?? "")) {
      plain += text[at + 1];
      at += 2;
      continue;
    }
    if (char === "`") {
      let ticks = "`";
      while (text[at + ticks.length] === "`") ticks += "`";
      const end = text.indexOf(ticks, at + ticks.length);
      if (end > 0) {
        wrap("code", text.slice(at + ticks.length, end).trim() || " ");
        at = end + ticks.length;
        continue;
      }
      plain += ticks;
      at += ticks.length;
      continue;
    }
    if (char === "*" || char === "_") {
      const marker = text[at + 1] === char ? char + char : char;
      const opens =
        !/\s/.test(text[at + marker.length] ?? " ") &&
        (char === "*" || !/\w/.test(text[at - 1] ?? ""));
      const end = opens ? closing(text, marker, at + marker.length) : -1;
      if (end > 0) {
        wrap(marker.length === 2 ? "strong" : "em", text.slice(at + marker.length, end));
        at = end + marker.length;
        continue;
      }
    }
    if (char === "[") {
      LINK.lastIndex = at;
      const link = LINK.exec(text);
      const href = link && safeHref(link[2] as string);
      if (link && href) {
        flush();
        const anchor = into.appendChild(document.createElement("a"));
        anchor.href = href;
        anchor.target = "_blank";
        anchor.rel = "noopener noreferrer";
        inline(link[1] as string, anchor);
        at += link[0].length;
        continue;
      }
    }
    plain += char;
    at += 1;
  }
  flush();
}

/** Lines joined by line breaks, each with its inline markdown. */
function lines(texts: string[], into: Node): void {
  texts.forEach((text, index) => {
    if (index > 0) into.appendChild(document.createElement("br"));
    inline(text.trim(), into);
  });
}

/** The answer's markdown as DOM nodes, for `element.replaceChildren(…)`. */
export function renderMarkdown(markdown: string): DocumentFragment {
  const fragment = document.createDocumentFragment();
  const source = markdown.replace(/\r\n?/g, "\n").split("\n");
  let paragraph: string[] = [];
  // The open lists, outermost first, each with the indent of its items.
  let lists: Array<{ list: HTMLElement; indent: number; last: HTMLElement }> = [];
  const top = () => lists[lists.length - 1];
  const endParagraph = () => {
    if (paragraph.length > 0) lines(paragraph, fragment.appendChild(document.createElement("p")));
    paragraph = [];
  };
  const endBlock = () => {
    endParagraph();
    lists = [];
  };

  for (let index = 0; index < source.length; index++) {
    const line = source[index] as string;
    const fence = FENCE.exec(line);
    if (fence) {
      endBlock();
      const code: string[] = [];
      while (
        ++index < source.length &&
        !(source[index] as string).trim().startsWith(fence[1] as string)
      ) {
        code.push(source[index] as string);
      }
      const pre = fragment.appendChild(document.createElement("pre"));
      pre.appendChild(document.createElement("code")).textContent = code.join("\n");
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      endBlock();
      // h3 to h5: the panel's own title is the h2.
      const level = Math.min((heading[1] as string).length + 2, 5);
      inline(heading[2] as string, fragment.appendChild(document.createElement(`h${level}`)));
      continue;
    }
    const listItem = item(line);
    if (listItem && (lists.length > 0 || listItem.indent < 4)) {
      endParagraph();
      while (lists.length > 0 && listItem.indent < (top()?.indent ?? 0)) lists.pop();
      let open = top();
      const nested = open && listItem.indent > open.indent;
      if (!open || nested || (open.list.tagName === "OL") !== listItem.ordered) {
        if (open && !nested) lists.pop();
        const list = document.createElement(listItem.ordered ? "ol" : "ul");
        if (listItem.ordered && listItem.number !== 1)
          list.setAttribute("start", `${listItem.number}`);
        (top()?.last ?? fragment).appendChild(list);
        open = { list, indent: listItem.indent, last: list };
        lists.push(open);
      }
      open.last = open.list.appendChild(document.createElement("li"));
      inline(listItem.text, open.last);
      continue;
    }
    if (!line.trim()) {
      endParagraph();
      // A blank line between two items keeps one list ("1. a", "", "2. b").
      const next = source.slice(index + 1).find((later) => later.trim());
      if (!next || !item(next)) lists = [];
      continue;
    }
    const open = top();
    if (open && /^\s/.test(line)) {
      // An indented line after an item continues it.
      open.last.appendChild(document.createElement("br"));
      inline(line.trim(), open.last);
      continue;
    }
    lists = [];
    paragraph.push(line);
  }
  endParagraph();
  return fragment;
}
