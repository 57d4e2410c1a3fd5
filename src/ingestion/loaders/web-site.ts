import { FetchFailedError } from "../../lib/safe-fetch.ts";
import { crawlSite, samePageUrl } from "./web-crawl.ts";
import type { WebFetchOptions, WebPage } from "./web-page.ts";
import { loadRobots } from "./web-robots.ts";
import { readSitemap, SitemapError } from "./web-sitemap.ts";

export type WebSiteConfig = { sitemap?: string; sourceUrl?: string };

type SiteDiscovery = "sitemap" | "robots_sitemap" | "sitemap_xml" | "crawl";

export type SitePages = {
  origin: string;
  discovery: SiteDiscovery;
  /** The pages of the site to index, at most the page limit, all allowed by robots.txt. */
  urls: string[];
  /** Pages the crawl already fetched (so they are not fetched twice). */
  pages: Map<string, WebPage>;
  failures: Map<string, Error>;
};

/** A site whose pages cannot be listed (nothing allowed, nothing found). */
export class WebSiteError extends Error {
  override readonly name = "WebSiteError";
}

// Sitemaps often list more than we keep (other hosts, disallowed paths): read some slack.
const SITEMAP_SLACK = 4;

/**
 * Lists the pages of a site: the given sitemap, else the `Sitemap:` lines of robots.txt, else
 * /sitemap.xml, else a same-origin crawl from source_url. Pages disallowed by robots.txt or on
 * another origin are left out.
 */
export async function discoverSitePages(
  config: WebSiteConfig,
  pageLimit: number,
  options: WebFetchOptions,
): Promise<SitePages> {
  const start = config.sourceUrl ?? config.sitemap;
  if (!start) throw new WebSiteError("A web_site needs config.sitemap or config.source_url");
  const origin = new URL(start).origin;
  const robots = await loadRobots(origin, options);
  const keep = (urls: string[]) => {
    const kept = new Set<string>();
    for (const raw of urls) {
      const url = samePageUrl(raw, origin);
      if (url && robots.isAllowed(url)) kept.add(url);
      if (kept.size >= pageLimit) break;
    }
    return [...kept];
  };
  const fromSitemaps = async (sitemapUrls: string[]) => {
    const listed: string[] = [];
    for (const sitemapUrl of sitemapUrls) {
      listed.push(...(await readSitemap(sitemapUrl, pageLimit * SITEMAP_SLACK, options)));
    }
    return keep(listed);
  };
  const found = (discovery: SiteDiscovery, urls: string[]): SitePages => ({
    origin,
    discovery,
    urls,
    pages: new Map(),
    failures: new Map(),
  });

  if (config.sitemap) return found("sitemap", await fromSitemaps([config.sitemap]));
  if (robots.sitemaps.length > 0) {
    const urls = await fromSitemaps(robots.sitemaps);
    if (urls.length > 0) return found("robots_sitemap", urls);
  }
  const conventional = await optionalSitemap(() =>
    fromSitemaps([new URL("/sitemap.xml", origin).href]),
  );
  if (conventional.length > 0) return found("sitemap_xml", conventional);

  const crawl = await crawlSite(start, pageLimit, robots, options);
  if (crawl.urls.length === 0) {
    throw new WebSiteError(`No page of ${origin} may be indexed (robots.txt disallows ${start})`);
  }
  return { origin, discovery: "crawl", ...crawl };
}

// /sitemap.xml is only a guess: when it is absent or not a sitemap, the crawl takes over.
async function optionalSitemap(read: () => Promise<string[]>): Promise<string[]> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof SitemapError) return [];
    if (error instanceof FetchFailedError && error.reason === "too_large") return [];
    throw error;
  }
}
