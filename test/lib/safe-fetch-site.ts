import { once } from "node:events";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll } from "vitest";
import { createSafeFetcher, type SafeFetcher } from "../../src/lib/safe-fetch.ts";

interface SeenRequest {
  method: string;
  url: string;
  host: string;
  headers: IncomingMessage["headers"];
  body: string;
}

/** A real HTTP server on 127.0.0.1 for the calling test file, plus fetchers closed after each test. */
export interface FakeSite {
  port: number;
  /** http://127.0.0.1:PORT */
  base: string;
  /** Requests received during the current test. */
  seen: SeenRequest[];
  fetcher(options: Parameters<typeof createSafeFetcher>[0]): SafeFetcher;
}

export function useFakeSite(): FakeSite {
  let server: Server;
  const fetchers: SafeFetcher[] = [];
  const site: FakeSite = {
    port: 0,
    base: "",
    seen: [],
    fetcher(options) {
      const created = createSafeFetcher(options);
      fetchers.push(created);
      return created;
    },
  };

  beforeAll(async () => {
    server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        const body = Buffer.concat(chunks).toString("utf8");
        site.seen.push({
          method: request.method ?? "",
          url: request.url ?? "",
          host: request.headers.host ?? "",
          headers: request.headers,
          body,
        });
        route(request, body, response, site.port);
      });
    });
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    site.port = (server.address() as AddressInfo).port;
    site.base = `http://127.0.0.1:${site.port}`;
  });

  afterEach(async () => {
    site.seen.length = 0;
    await Promise.all(fetchers.splice(0).map((created) => created.close()));
  });

  afterAll(async () => {
    server.closeAllConnections();
    server.close();
    await once(server, "close");
  });

  return site;
}

/** The error a promise rejects with; fails the test when it resolves. */
export async function failure(promise: Promise<unknown>): Promise<Error> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  if (!(error instanceof Error)) throw new Error("expected the promise to reject");
  return error;
}

function route(request: IncomingMessage, body: string, response: ServerResponse, port: number) {
  const url = new URL(request.url ?? "/", "http://x");
  const redirect = (status: number, location: string) =>
    response.writeHead(status, { location }).end("moved");
  const chain = /^\/chain\/(\d+)$/.exec(url.pathname);
  if (chain) {
    const left = Number(chain[1]);
    if (left === 0) return response.end("end of chain");
    return redirect(302, `/chain/${left - 1}`);
  }
  switch (url.pathname) {
    case "/ok":
      return response
        .writeHead(200, { "content-type": "text/plain; charset=utf-8", "x-answer": ["a", "b"] })
        .end("hello");
    case "/echo":
      return response
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ method: request.method, body, headers: request.headers }));
    case "/stream": {
      response.writeHead(200, { "content-type": "application/octet-stream" });
      for (let i = 0; i < 5; i++) response.write(Buffer.alloc(1000, 97));
      return response.end();
    }
    case "/declared-large":
      return response.writeHead(200, { "content-length": "50000" }).end(Buffer.alloc(50000));
    case "/never":
      return; // keeps the request open without answering
    case "/loop":
      return redirect(302, "/loop");
    case "/see-other":
      return redirect(303, "/echo");
    case "/temporary":
      return redirect(307, "/echo");
    case "/found":
      return redirect(302, "/echo");
    case "/to-ftp":
      return redirect(302, "ftp://example.com/file");
    case "/to-other-origin":
      return redirect(302, `http://localhost:${port}/echo`);
    case "/redirect":
      return redirect(302, url.searchParams.get("to") ?? "/echo");
    case "/not-found":
      return response.writeHead(404).end("missing");
    default:
      return response.writeHead(500).end();
  }
}
