import robotsParserModule from "robots-parser";
import { FetchFailedError } from "../../lib/safe-fetch.ts";
import type { WebFetchOptions } from "./web-page.ts";

/** The user agent our robots.txt rules are matched against (and sent by the fetcher). */
const CRAWLER_USER_AGENT = "agentdesk";
const ROBOTS_MAX_BYTES = 512 * 1024;

type Robot = {
  isAllowed(url: string, userAgent?: string): boolean | undefined;
  getSitemaps(): string[];
};
// The package is CommonJS whose typings declare an ES default export; at runtime under Node's
// ESM loader the default import *is* the parser function.
const robotsParser = robotsParserModule as unknown as (url: string, contents: string) => Robot;

export type RobotsRules = {
  isAllowed(url: string): boolean;
  /** Absolute sitemap URLs listed by `Sitemap:` lines. */
  sitemaps: string[];
};

/**
 * Reads the origin's robots.txt. A missing file (4xx) allows everything, as the robots
 * standard (RFC 9309) says; an unreachable or failing one (5xx) disallows everything.
 */
export async function loadRobots(origin: string, options: WebFetchOptions): Promise<RobotsRules> {
  const robotsUrl = new URL("/robots.txt", origin).href;
  let text: string;
  try {
    const response = await options.fetcher.fetch(robotsUrl, {
      accept: "text/plain",
      maxBytes: ROBOTS_MAX_BYTES,
      timeoutMs: options.timeoutMs,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    if (response.status >= 400 && response.status < 500) return allowAll();
    if (response.status < 200 || response.status > 299) return disallowAll();
    text = response.body.toString("utf8");
  } catch (error) {
    if (error instanceof FetchFailedError && error.reason === "too_large") return allowAll();
    throw error;
  }
  const robots = robotsParser(robotsUrl, text);
  return {
    isAllowed: (url) => robots.isAllowed(url, CRAWLER_USER_AGENT) !== false,
    sitemaps: robots.getSitemaps().filter((url) => URL.canParse(url)),
  };
}

function allowAll(): RobotsRules {
  return { isAllowed: () => true, sitemaps: [] };
}

function disallowAll(): RobotsRules {
  return { isAllowed: () => false, sitemaps: [] };
}
