import { Worker } from "node:worker_threads";

export type LoadOptions = {
  url: string;
  method: "GET" | "POST";
  headers?: Record<string, string>;
  /** JSON bodies are made per request from this template; "{{i}}" becomes a counter. */
  bodyTemplate?: string;
  connections: number;
  durationMs: number;
};

export type LoadResult = {
  requests: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  statuses: Record<string, number>;
};

/**
 * Drives HTTP load from a worker thread, so the client does not steal the server's event loop
 * (it still shares the machine's cores, like any load generator on the same host).
 */
export function runLoad(options: LoadOptions): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL("./load-worker.mjs", import.meta.url), {
      workerData: options,
    });
    worker.once("message", resolve);
    worker.once("error", reject);
  });
}

export function formatTable(rows: Array<Record<string, string | number>>): string {
  const columns = Object.keys(rows[0] ?? {});
  const widths = columns.map((column) =>
    Math.max(column.length, ...rows.map((row) => String(row[column]).length)),
  );
  const line = (cells: string[]) =>
    `| ${cells.map((cell, index) => cell.padEnd(widths[index]!)).join(" | ")} |`;
  return [
    line(columns),
    line(widths.map((width) => "-".repeat(width))),
    ...rows.map((row) => line(columns.map((column) => String(row[column])))),
  ].join("\n");
}
