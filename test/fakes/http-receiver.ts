import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

export type ReceivedRequest = {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  receivedAt: number;
  /** The status answered, or null while the request is held (or was never answered). */
  answeredWith: number | null;
};

export type Receiver = {
  url: string;
  requests: ReceivedRequest[];
  /** Status codes to answer, in order; once used up every request gets 200. */
  respondWith(statuses: number[]): void;
  /**
   * While on, POSTs are recorded but not answered (their connections stay open until the sender
   * goes away or the receiver closes), like a receiver that is slow to answer.
   */
  holdPosts(on: boolean): void;
  /** Resolves once at least `count` requests arrived. */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedRequest[]>;
  close(): Promise<void>;
};

/** A real HTTP server on 127.0.0.1 that records what it receives (webhooks, notifications). */
export async function startReceiver(): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  let statuses: number[] = [];
  let holding = false;
  const waiters = new Set<() => void>();
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const received: ReceivedRequest = {
        method: request.method ?? "",
        path: request.url ?? "",
        headers: request.headers,
        body: Buffer.concat(chunks).toString("utf8"),
        receivedAt: Date.now(),
        answeredWith: null,
      };
      requests.push(received);
      if (!(holding && received.method === "POST")) {
        response.statusCode = statuses.shift() ?? 200;
        received.answeredWith = response.statusCode;
        response.end("ok");
      }
      for (const wake of waiters) wake();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    respondWith(next) {
      statuses = [...next];
    },
    holdPosts(on) {
      holding = on;
    },
    waitFor(count, timeoutMs = 15_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (requests.length < count) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(requests);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`expected ${count} requests, got ${requests.length}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    close() {
      return new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
    },
  };
}
