import type { AddressInfo } from "node:net";
import { connect, createServer, type Socket } from "node:net";

export type TcpProxy = {
  /** host:port to connect to instead of the target. */
  port: number;
  /** Cuts every open connection, and refuses new ones (closes them at once) until `restore`. */
  cut(): void;
  restore(): void;
  close(): Promise<void>;
};

/**
 * A TCP proxy on 127.0.0.1 in front of a server (PostgreSQL), so that a test can cut the
 * service's connections to it as a network failure or a stopped server would.
 */
export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const open = new Set<Socket>();
  let cut = false;
  const server = createServer((client) => {
    if (cut) {
      client.destroy();
      return;
    }
    const upstream = connect(target.port, target.host);
    for (const socket of [client, upstream]) {
      open.add(socket);
      socket.on("close", () => open.delete(socket));
      socket.on("error", () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as AddressInfo).port,
    cut() {
      cut = true;
      for (const socket of open) socket.destroy();
    },
    restore() {
      cut = false;
    },
    async close() {
      for (const socket of open) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
