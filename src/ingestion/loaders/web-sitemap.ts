import { gunzipSync } from "node:zlib";
import type { WebFetchOptions } from "./web-page.ts";

/** A sitemap that could not be read: HTTP error, not XML, neither a urlset nor an index. */
export class SitemapError extends Error {
  override readonly name = "SitemapError";
}

// Nested sitemap indexes deeper than this are not followed (the protocol allows one level).
const MAX_INDEX_DEPTH = 2;
const MAX_SITEMAPS = 50;

type SitemapEntry = { loc?: unknown };

/**
 * Page URLs listed by a sitemap (urlset, or an index of sitemaps, gzip or not), in document order,
 * without duplicates, stopping once `limit` URLs are collected.
 */
export async function readSitemap(
  sitemapUrl: string,
  limit: number,
  options: WebFetchOptions,
): Promise<string[]> {
  const urls = new Set<string>();
  const queue: { url: string; depth: number }[] = [{ url: sitemapUrl, depth: 0 }];
  const seen = new Set<string>();
  while (queue.length > 0 && urls.size < limit && seen.size < MAX_SITEMAPS) {
    const next = queue.shift()!;
    if (seen.has(next.url)) continue;
    seen.add(next.url);
    const document = await fetchSitemap(next.url, options);
    if (document.kind === "index") {
      if (next.depth < MAX_INDEX_DEPTH) {
        for (const url of document.locations) queue.push({ url, depth: next.depth + 1 });
      }
      continue;
    }
    for (const url of document.locations) {
      if (urls.size >= limit) break;
      urls.add(url);
    }
  }
  return [...urls];
}

async function fetchSitemap(url: string, options: WebFetchOptions) {
  const response = await options.fetcher.fetch(url, {
    accept: "application/xml,text/xml;q=0.9,*/*;q=0.5",
    maxBytes: options.maxBytes,
    timeoutMs: options.timeoutMs,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  if (response.status < 200 || response.status > 299) {
    throw new SitemapError(`The sitemap ${url} answered HTTP ${response.status}`);
  }
  const xml = decompress(response.body, options.maxBytes, url).toString("utf8");
  return parseSitemap(xml, url);
}

function decompress(body: Buffer, maxBytes: number, url: string): Buffer {
  if (body[0] !== 0x1f || body[1] !== 0x8b) return body;
  try {
    return gunzipSync(body, { maxOutputLength: maxBytes });
  } catch {
    throw new SitemapError(
      `The sitemap ${url} is not valid gzip or expands beyond ${maxBytes} bytes`,
    );
  }
}

/** The `<loc>` entries of a sitemap document, resolved against its URL. */
async function parseSitemap(
  xml: string,
  url: string,
): Promise<{ kind: "urlset" | "index"; locations: string[] }> {
  // Loaded with the first sitemap rather than at start, like the file loaders (index.ts).
  const { XMLParser } = await import("fast-xml-parser");
  let parsed: Record<string, unknown>;
  try {
    parsed = new XMLParser({
      ignoreAttributes: true,
      removeNSPrefix: true,
      processEntities: true,
      isArray: (name) => name === "url" || name === "sitemap",
    }).parse(xml) as Record<string, unknown>;
  } catch {
    throw new SitemapError(`The sitemap ${url} is not valid XML`);
  }
  const urlset = parsed.urlset as { url?: SitemapEntry[] } | undefined;
  const index = parsed.sitemapindex as { sitemap?: SitemapEntry[] } | undefined;
  if (urlset) return { kind: "urlset", locations: locationsOf(urlset.url, url) };
  if (index) return { kind: "index", locations: locationsOf(index.sitemap, url) };
  throw new SitemapError(`${url} is not a sitemap (no urlset or sitemapindex)`);
}

function locationsOf(entries: SitemapEntry[] | undefined, base: string): string[] {
  const locations: string[] = [];
  for (const entry of entries ?? []) {
    const loc = typeof entry.loc === "string" ? entry.loc.trim() : "";
    if (loc !== "" && URL.canParse(loc, base)) locations.push(new URL(loc, base).href);
  }
  return locations;
}
