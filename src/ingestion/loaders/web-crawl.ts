import { fetchWebPage, type WebFetchOptions, type WebPage } from "./web-page.ts";
import type { RobotsRules } from "./web-robots.ts";

// Links to these are files, not pages; fetching them would only spend the page budget.
const NON_PAGE_EXTENSIONS =
  /\.(png|jpe?g|gif|webp|svg|ico|bmp|tiff?|mp[34]|m4a|wav|webm|avi|mov|zip|gz|tgz|rar|7z|exe|dmg|iso|css|js|mjs|woff2?|ttf|eot)$/i;

export type CrawlResult = {
  /** Every page URL visited (allowed by robots.txt, on the origin), in crawl order. */
  urls: string[];
  pages: Map<string, WebPage>;
  failures: Map<string, Error>;
};

/** A URL without its fragment, or null when it is not an http(s) URL on `origin`. */
export function samePageUrl(raw: string, origin: string, base?: string): string | null {
  if (!URL.canParse(raw, base)) return null;
  const url = new URL(raw, base);
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  if (url.origin !== origin) return null;
  url.hash = "";
  return url.href;
}

/** Breadth-first crawl from `start` that stays on its origin, obeys robots.txt and stops at `limit` pages. */
export async function crawlSite(
  start: string,
  limit: number,
  robots: RobotsRules,
  options: WebFetchOptions,
): Promise<CrawlResult> {
  const origin = new URL(start).origin;
  const result: CrawlResult = { urls: [], pages: new Map(), failures: new Map() };
  const first = samePageUrl(start, origin);
  const queue = first ? [first] : [];
  const queued = new Set(queue);
  while (queue.length > 0 && result.urls.length < limit) {
    options.signal?.throwIfAborted();
    const url = queue.shift()!;
    if (!robots.isAllowed(url)) continue;
    let page: WebPage;
    try {
      page = await fetchWebPage(url, options);
    } catch (error) {
      if (options.signal?.aborted) throw error;
      result.urls.push(url);
      result.failures.set(url, error as Error);
      continue;
    }
    // A redirect off the origin leaves the site: that page is not part of it.
    if (new URL(page.url).origin !== origin) continue;
    result.urls.push(url);
    result.pages.set(url, page);
    for (const link of page.links) {
      const next = samePageUrl(link, origin, page.url);
      if (next && !queued.has(next) && !NON_PAGE_EXTENSIONS.test(new URL(next).pathname)) {
        queued.add(next);
        queue.push(next);
      }
    }
  }
  return result;
}
