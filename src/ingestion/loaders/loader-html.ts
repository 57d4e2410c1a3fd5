import { Readability } from "@mozilla/readability";
import { parseHTML } from "linkedom";
import { createMarkdownConverter } from "./markdown-converter.ts";

// The members of linkedom's DOM used here; the project compiles without the DOM lib.
type HtmlElement = {
  textContent: string | null;
  innerHTML: string;
  getAttribute(name: string): string | null;
  setAttribute(name: string, value: string): void;
  removeAttribute(name: string): void;
  closest(selectors: string): HtmlElement | null;
  remove(): void;
};
type HtmlDocument = {
  title: string;
  body: HtmlElement | null;
  querySelector(selectors: string): HtmlElement | null;
  querySelectorAll(selectors: string): ArrayLike<HtmlElement>;
};

// Page chrome that is never the main content. Readability drops most of it by scoring, but a
// short page can score its menu as content, so it is removed outright first.
const CHROME_SELECTORS = [
  "script",
  "style",
  "noscript",
  "template",
  "iframe",
  "svg",
  "nav",
  "aside",
  "footer",
  "[role=navigation]",
  "[role=banner]",
  "[role=contentinfo]",
  "[role=search]",
].join(", ");

const LINK_ATTRIBUTES = [
  ["a[href]", "href"],
  ["img[src]", "src"],
] as const;

/** What a web page gives the index: its title, its readable content and the links to follow. */
export type HtmlPage = { title: string | null; markdown: string; links: string[] };

/**
 * The readable main content of a web page as Markdown (headings as `#`, links made absolute
 * against `url`), without navigation, headers, footers or scripts; the page title is returned
 * and also opens the Markdown as a `#` heading. `links` are the page's `a[href]` targets as
 * written, menus included (a crawler follows them), without mailto:, tel: and javascript:.
 */
export function readHtmlPage(html: string, url: string): HtmlPage {
  const { document } = parseHTML(wrapFragment(html)) as unknown as { document: HtmlDocument };
  const pageTitle = titleOf(document);
  const links = linksOf(document);
  for (const element of Array.from(document.querySelectorAll(CHROME_SELECTORS))) element.remove();
  for (const header of Array.from(document.querySelectorAll("header"))) {
    if (!header.closest("article, main")) header.remove();
  }
  absolutizeLinks(document, url);
  const fallbackHtml = document.body?.innerHTML ?? "";
  const article = new Readability(document, { charThreshold: 100 }).parse();
  const contentHtml =
    article?.content && article.textContent?.trim() ? article.content : fallbackHtml;
  const body = createMarkdownConverter()(contentHtml);
  const title = clean(article?.title) ?? pageTitle;
  return { title, markdown: withTitleHeading(title, body), links };
}

function linksOf(document: HtmlDocument): string[] {
  const links: string[] = [];
  for (const anchor of Array.from(document.querySelectorAll("a[href]"))) {
    const href = anchor.getAttribute("href");
    if (href && !/^(mailto|tel|javascript):/i.test(href)) links.push(href);
  }
  return links;
}

function titleOf(document: HtmlDocument): string | null {
  return (
    clean(document.title) ??
    clean(document.querySelector('meta[property="og:title"]')?.getAttribute("content")) ??
    clean(document.querySelector("h1")?.textContent)
  );
}

function absolutizeLinks(document: HtmlDocument, pageUrl: string): void {
  const baseHref = document.querySelector("base[href]")?.getAttribute("href");
  const base = (baseHref && parseUrl(baseHref, pageUrl)) || parseUrl(pageUrl);
  for (const [selector, attribute] of LINK_ATTRIBUTES) {
    for (const element of Array.from(document.querySelectorAll(selector))) {
      const resolved = base ? parseUrl(element.getAttribute(attribute) ?? "", base.href) : null;
      // javascript:, data: and unparsable links are kept as plain text, not as links.
      if (resolved && /^(https?|mailto):$/.test(resolved.protocol)) {
        element.setAttribute(attribute, resolved.href);
      } else {
        element.removeAttribute(attribute);
      }
    }
  }
}

function withTitleHeading(title: string | null, markdown: string): string {
  if (!title) return markdown;
  const firstLine = markdown.split("\n", 1)[0] ?? "";
  const firstHeading = firstLine.match(/^#{1,6} (.+)$/)?.[1]?.trim();
  if (firstHeading?.toLowerCase() === title.toLowerCase()) return markdown;
  return markdown === "" ? `# ${title}` : `# ${title}\n\n${markdown}`;
}

// linkedom does not build the implied <html>, <head> and <body> of a page that leaves them out
// (as browsers do), so such a page, or a bare fragment, gets its skeleton written out here.
function wrapFragment(html: string): string {
  if (/<html[\s>]/i.test(html)) return html;
  let rest = html.replace(/^\s*<!doctype[^>]*>/i, "");
  const head =
    rest.match(/<head[\s>][\s\S]*?<\/head>/i)?.[0] ??
    rest.match(/<title[\s>][\s\S]*?<\/title>/i)?.[0] ??
    "";
  rest = rest.replace(head, "").replace(/<\/?body[^>]*>/gi, "");
  const headContent = head.replace(/^<head[^>]*>|<\/head>$/gi, "");
  return `<!doctype html><html><head>${headContent}</head><body>${rest}</body></html>`;
}

function parseUrl(value: string, base?: string): URL | null {
  try {
    return new URL(value, base);
  } catch {
    return null;
  }
}

function clean(text: string | null | undefined): string | null {
  const collapsed = text?.replace(/\s+/g, " ").trim();
  return collapsed ? collapsed : null;
}
