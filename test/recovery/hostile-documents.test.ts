import { spawn } from "node:child_process";
import { once } from "node:events";
import { describe, expect } from "vitest";
import {
  hostileCsv,
  hostileDocx,
  hostilePdf,
  hostilePptx,
  hostileXlsx,
} from "../fixtures/hostile-documents.ts";
import type { TestOrganization } from "../harness/app.ts";
import type { ServiceProcess } from "../harness/service-process.ts";
import { multipartBody } from "../knowledge/knowledge-helpers.ts";
import { serviceTest } from "./recovery-helpers.ts";

// Valid documents built to exhaust a parser, uploaded to a real `agentdesk serve` process whose
// parser threads have 64 MB of heap and whose documents may hold 1 M characters: each datasource
// ends in error with the reason, the process answers its health check within a second
// throughout, never restarts, and reads an ordinary document afterwards. The shapes are those of
// the adversarial round (a 9 MB DOCX of 2.6 M paragraphs took the process down), scaled to stay
// over these limits. The time limit is left long, so that a busy machine cannot turn a heap
// refusal into a time one; the parser's own test ends reads at their time limit
// (test/ingestion/parser/document-parser.test.ts).
const PARSER_MEMORY_MB = 64;
const PARSER_TIMEOUT_MS = 60_000;
const MAX_CHARACTERS = 1_000_000;
const HEALTH_BOUND_MS = 1_000;
const SLOW_TEST_MS = 180_000;

const DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";
const XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
const PPTX = "application/vnd.openxmlformats-officedocument.presentationml.presentation";

type Datasource = { id: string; status: string; errorMessage: string | null; chunkCount: number };

/**
 * `serviceTest` with, once per file: a bare `control` server, the `service` process, its `org`
 * and the datastore (`datastoreId`) the documents go to.
 */
const test = serviceTest("agentdesk-hostile-")
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from it
  .extend("control", { scope: "file" }, async ({}, { onCleanup }) => {
    const control = await startControlServer();
    onCleanup(() => control.close());
    return control;
  })
  .extend("service", { scope: "file" }, ({ spawnService }) => spawnService())
  .extend("org", { scope: "file" }, ({ service }) =>
    service.createOrganization("Hostile documents"),
  )
  .extend("datastoreId", { scope: "file" }, async ({ service, org }) => {
    const store = await service.request<{ id: string }>("POST", "/api/datastores", {
      auth: org,
      json: { name: "Uploads" },
    });
    return store.body.id;
  });
test.override("env", { scope: "file" }, ({ storage }) => ({
  ...storage,
  KNOWLEDGE_PLAN_LIMITS: "",
  DOCUMENT_PARSER_MEMORY_MB: String(PARSER_MEMORY_MB),
  DOCUMENT_PARSER_TIMEOUT_MS: String(PARSER_TIMEOUT_MS),
  DOCUMENT_MAX_CHARACTERS: String(MAX_CHARACTERS),
}));

type Uploads = {
  service: ServiceProcess;
  org: TestOrganization;
  datastoreId: string;
  control: { url: string };
};

async function upload(
  { service, org, datastoreId }: Omit<Uploads, "control">,
  fileName: string,
  contentType: string,
  content: Buffer,
) {
  const { payload, headers } = multipartBody(
    [
      { name: "type", value: "file" },
      { name: "datastoreId", value: datastoreId },
    ],
    { fileName, contentType, content },
  );
  const { status, body } = await service.request<Datasource>("POST", "/api/datasources", {
    auth: org,
    body: payload,
    headers,
  });
  expect(status).toBe(201);
  return body.id;
}

/**
 * Waits until the datasource leaves pending/running, asking /api/health every 100 ms meanwhile,
 * and a bare HTTP server in a process of its own at the same moment: on a busy machine both wait
 * for a core alike, so what the service adds is its health time less the bare server's.
 */
async function settleWatchingHealth(
  { service, org, control }: Omit<Uploads, "datastoreId">,
  datasourceId: string,
  timeoutMs = 90_000,
) {
  const addedMs: number[] = [];
  const deadline = Date.now() + timeoutMs;
  const timed = async (url: string) => {
    const started = performance.now();
    const response = await fetch(url, { signal: AbortSignal.timeout(10_000) });
    await response.arrayBuffer();
    return { status: response.status, ms: performance.now() - started };
  };
  for (;;) {
    const [health, bare] = await Promise.all([
      timed(`${service.apiUrl}/api/health`),
      timed(control.url),
    ]);
    expect(health.status).toBe(200);
    addedMs.push(health.ms - bare.ms);
    const { body } = await service.request<Datasource>("GET", `/api/datasources/${datasourceId}`, {
      auth: org,
    });
    if (body.status !== "pending" && body.status !== "running") {
      return { datasource: body, slowestHealthMs: Math.max(...addedMs) };
    }
    if (Date.now() > deadline) throw new Error(`still ${body.status}\n${service.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A bare HTTP server in its own process: the machine's own latency at each moment. */
async function startControlServer(): Promise<{ url: string; close(): void }> {
  const child = spawn(
    process.execPath,
    [
      "-e",
      "require('node:http').createServer((q, s) => s.end('ok')).listen(0, '127.0.0.1', function () { console.log(this.address().port) })",
    ],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  const [line] = (await once(child.stdout!, "data")) as [Buffer];
  return { url: `http://127.0.0.1:${line.toString().trim()}/`, close: () => child.kill() };
}

describe("documents that exhaust a parser", () => {
  const outOfMemory = `The document needs more than ${PARSER_MEMORY_MB} MB of memory to read`;
  const tooLong = `The document holds more than ${MAX_CHARACTERS} characters of text`;
  const cases: Array<{
    name: string;
    file: () => Promise<[string, string, Buffer]>;
    error: string;
  }> = [
    {
      name: "a DOCX of 200,000 one-word paragraphs (0.5 MB, 1.5 M characters)",
      file: async () => ["paragraphs.docx", DOCX, Buffer.from(await hostileDocx(200_000))],
      error: tooLong,
    },
    {
      name: "a PPTX whose one slide holds 200,000 paragraphs",
      file: async () => ["slide.pptx", PPTX, Buffer.from(await hostilePptx(200_000))],
      error: tooLong,
    },
    {
      name: "an XLSX of 150,000 rows",
      file: async () => ["rows.xlsx", XLSX, Buffer.from(await hostileXlsx(150_000))],
      error: tooLong,
    },
    {
      name: "a CSV of 600,000 short rows (7.7 MB), which csv-parse holds whole",
      file: async () => ["rows.csv", "text/csv", Buffer.from(hostileCsv(600_000))],
      error: outOfMemory,
    },
    {
      name: "a PDF whose one content stream inflates to 120 MB",
      file: async () => ["bomb.pdf", "application/pdf", Buffer.from(hostilePdf(120))],
      error: "The PDF's content expands beyond 100 MiB; refusing a possible decompression bomb",
    },
  ];

  for (const { name, file, error } of cases) {
    test(
      `ends ${name} in error while the service keeps answering`,
      async ({ service, org, datastoreId, control }) => {
        const [fileName, contentType, content] = await file();
        const id = await upload({ service, org, datastoreId }, fileName, contentType, content);
        const { datasource, slowestHealthMs } = await settleWatchingHealth(
          { service, org, control },
          id,
        );
        expect(datasource.status).toBe("error");
        expect(datasource.errorMessage).toContain(error);
        expect(slowestHealthMs).toBeLessThan(HEALTH_BOUND_MS);
      },
      SLOW_TEST_MS,
    );
  }

  test(
    "reads a DOCX of 120,000 paragraphs (0.9 M characters) while the service keeps answering",
    async ({ control, service, org, datastoreId }) => {
      const content = Buffer.from(await hostileDocx(120_000));
      const id = await upload({ service, org, datastoreId }, "long.docx", DOCX, content);
      const { datasource, slowestHealthMs } = await settleWatchingHealth(
        { service, org, control },
        id,
      );
      expect(datasource).toMatchObject({ status: "synched", errorMessage: null });
      expect(datasource.chunkCount).toBeGreaterThan(100);
      expect(slowestHealthMs).toBeLessThan(HEALTH_BOUND_MS);
    },
    SLOW_TEST_MS,
  );

  test("is still the same process, and reads an ordinary document after them", async ({
    control,
    service,
    org,
    datastoreId,
  }) => {
    const id = await upload(
      { service, org, datastoreId },
      "hours.md",
      "text/markdown",
      Buffer.from("# Hours\n\nOpen 9 to 5."),
    );
    const { datasource } = await settleWatchingHealth({ service, org, control }, id);
    expect(datasource).toMatchObject({ status: "synched", chunkCount: 1 });
    // One banner: the process never restarted (a restart would be a new process anyway, and
    // service.request would fail against the dead one).
    expect(service.output().match(/agentdesk worker: running/g)).toHaveLength(1);
  });
});
