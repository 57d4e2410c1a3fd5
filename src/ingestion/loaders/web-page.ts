import type { SafeFetcher } from "../../lib/safe-fetch.ts";
import type { DocumentParser } from "../parser/document-parser.ts";
import { detectFileType, type LoadedSection } from "./index.ts";

/** What every web fetch of the ingestion is bounded by, and the parser that reads what it got. */
export type WebFetchOptions = {
  fetcher: Pick<SafeFetcher, "fetch">;
  parser: Pick<DocumentParser, "load" | "readHtml">;
  maxBytes: number;
  timeoutMs: number;
  signal?: AbortSignal;
};

export type WebPage = {
  /** The URL after redirects. */
  url: string;
  title: string | null;
  sections: LoadedSection[];
  /** The page's links as written, for the crawler ([] when the page is not HTML). */
  links: string[];
  sizeBytes: number;
};

/** A page that answered but cannot be indexed (HTTP error, empty, unreadable). */
export class WebPageError extends Error {
  override readonly name = "WebPageError";
}

const HTML_TYPES = /^(text\/html|application\/xhtml\+xml)\b/i;

/**
 * Fetches one page through the SSRF-safe fetcher and turns it into sections: HTML becomes the
 * Markdown of its readable main content (title kept), a document served over HTTP (PDF, DOCX…)
 * goes through the file loaders; both are read in the parser's threads.
 */
export async function fetchWebPage(url: string, options: WebFetchOptions): Promise<WebPage> {
  const response = await options.fetcher.fetch(url, {
    accept: "text/html,application/xhtml+xml;q=0.9,*/*;q=0.5",
    maxBytes: options.maxBytes,
    timeoutMs: options.timeoutMs,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  if (response.status < 200 || response.status > 299) {
    throw new WebPageError(`${response.url} answered HTTP ${response.status}`);
  }
  const contentType = response.contentType ?? "";
  if (HTML_TYPES.test(contentType) || (contentType === "" && looksLikeHtml(response.body))) {
    const html = response.body.toString("utf8");
    const { title, markdown, links } = await options.parser.readHtml(html, response.url, {
      ...(options.signal ? { signal: options.signal } : {}),
    });
    return {
      url: response.url,
      title,
      sections:
        markdown.trim() === "" ? [] : [{ text: markdown, metadata: title ? { title } : {} }],
      links,
      sizeBytes: response.body.byteLength,
    };
  }
  const path = new URL(response.url).pathname;
  const mimeType = detectFileType(response.body, contentType.split(";")[0], path);
  const sections = await options.parser.load(
    { bytes: response.body, mimeType, fileName: path },
    options.signal ? { signal: options.signal } : {},
  );
  return {
    url: response.url,
    title: null,
    sections,
    links: [],
    sizeBytes: response.body.byteLength,
  };
}

function looksLikeHtml(body: Buffer): boolean {
  return /^\s*(<!doctype html|<html)/i.test(body.subarray(0, 512).toString("utf8"));
}
