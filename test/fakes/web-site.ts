import { once } from "node:events";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type FakeResponse = {
  status?: number;
  contentType?: string;
  body?: string | Buffer;
  headers?: Record<string, string>;
  /** Never answers (the connection stays open until the site closes). */
  hang?: boolean;
  /** Answers once this settles, with the response as it was when the request came. */
  after?: Promise<unknown>;
};

export type FakeWebSite = {
  base: string;
  /** Path → response; change it between syncs to simulate a site that evolves. */
  routes: Map<string, FakeResponse>;
  /** Every path requested, in order. */
  requests: string[];
  close(): Promise<void>;
};

/** A real HTTP server on 127.0.0.1 that serves a little web site (robots.txt, sitemaps, pages). */
export async function startFakeWebSite(
  routes: Record<string, FakeResponse> = {},
): Promise<FakeWebSite> {
  const table = new Map(Object.entries(routes));
  const requests: string[] = [];
  const hanging = new Set<ServerResponse>();
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const path = request.url ?? "/";
    requests.push(path);
    const route = table.get(path);
    if (!route) {
      response.writeHead(404, { "content-type": "text/plain" }).end("not found");
      return;
    }
    if (route.hang) {
      hanging.add(response);
      return;
    }
    const answer = () => {
      response.writeHead(route.status ?? 200, {
        "content-type": route.contentType ?? "text/html; charset=utf-8",
        ...route.headers,
      });
      response.end(route.body ?? "");
    };
    if (route.after) void route.after.then(answer);
    else answer();
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    routes: table,
    requests,
    async close() {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      server.close();
      await once(server, "close");
    },
  };
}

/** An HTML page with navigation and footer around an article, like a real site's. */
export function htmlPage(title: string, article: string, links: string[] = []): FakeResponse {
  const nav = links.map((href) => `<a href="${href}">${href}</a>`).join(" ");
  return {
    body: `<!doctype html><html><head><title>${title}</title></head><body>
<nav>Menu: Home Pricing Careers ${nav}</nav>
<main><article><h1>${title}</h1><p>${article}</p><p>${links
      .map((href) => `See <a href="${href}">more</a>.`)
      .join(" ")}</p></article></main>
<footer>Copyright footer text</footer></body></html>`,
  };
}

export function sitemap(urls: string[]): FakeResponse {
  return {
    contentType: "application/xml",
    body: `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls
      .map((url) => `<url><loc>${url}</loc></url>`)
      .join("")}</urlset>`,
  };
}

export function robots(lines: string[]): FakeResponse {
  return { contentType: "text/plain", body: `${lines.join("\n")}\n` };
}
