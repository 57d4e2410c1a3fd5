import { existsSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { type Browser, chromium } from "playwright-core";

/** Debian's chromium; the tests never download a browser (.ci/run installs it with apt). */
const CHROMIUM = "/usr/bin/chromium";

export const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) {
  console.warn(
    `test/widget: ${CHROMIUM} is missing, the browser tests are skipped ` +
      "(install it with `apt-get install -y chromium`; .ci/run does)",
  );
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ["--no-sandbox", "--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream"],
  });
}

type HostPage = {
  agentId: string;
  /** data- attributes of the script tag besides data-agent-id. */
  data?: Record<string, string>;
  /** The page's Content-Security-Policy header. */
  csp?: string;
};

export type HostSite = {
  /** The site's origin, e.g. http://127.0.0.1:40123 (another port than the API's). */
  origin: string;
  /** Serves a page embedding the widget at a new path and returns its URL. */
  page(page: HostPage): string;
  close(): Promise<void>;
};

const escapeAttribute = (text: string) => text.replace(/&/g, "&amp;").replace(/"/g, "&quot;");

/**
 * A customer's web site on 127.0.0.1: pages that embed the widget with the one-line script tag.
 * Its own styles would turn every button red and every text huge if they leaked into the widget.
 */
export async function startHostSite(apiUrl: string): Promise<HostSite> {
  const pages = new Map<string, HostPage>();
  const server = createServer((request, response) => {
    const page = pages.get(request.url ?? "");
    if (!page) {
      response.writeHead(404).end();
      return;
    }
    const data = Object.entries({ "agent-id": page.agentId, ...page.data })
      .map(([name, value]) => ` data-${name}="${escapeAttribute(value)}"`)
      .join("");
    const hostStyles = page.csp
      ? ""
      : "<style>button{background:#e00!important;font-size:40px!important}</style>";
    response.writeHead(200, {
      "content-type": "text/html; charset=utf-8",
      ...(page.csp ? { "content-security-policy": page.csp } : {}),
    });
    response.end(`<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Rotterdam Bikes</title>${hostStyles}</head>
<body><h1>Rotterdam Bikes</h1><p>City bikes, delivered.</p><button type="button">Shop now</button>
<script src="${apiUrl}/widget.js"${data} defer></script>
</body></html>`);
  });
  server.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    page(page) {
      const path = `/page-${pages.size + 1}`;
      pages.set(path, page);
      return `${origin}${path}`;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
