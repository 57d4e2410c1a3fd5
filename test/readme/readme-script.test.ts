import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import {
  closeSync,
  createWriteStream,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createServer } from "node:http";
import { createServer as createNetServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { test as base, describe, expect, inject } from "vitest";
import { testDatabaseKind } from "../harness/database.ts";

/**
 * The README's walkthrough, run as one bash script: every ```sh block in order, as written,
 * against a service started the way its Quick start says (`npm start`, output kept in
 * agentdesk.log, the embedded database, ADMIN_TOKEN=change-me as its admin section says).
 *
 * A block preceded by `<!-- readme-test: skip (reason) -->` is left out; one preceded by
 * `<!-- readme-test: stop the service first -->` runs once the service has stopped (the CLI and
 * the embedded database, which opens in one process at a time).
 *
 * Only the addresses change: the service listens on free ports instead of 3000 and 3001, and the
 * example.com URLs the service would fetch or post to point at a local server.
 */

const REPO = fileURLToPath(new URL("../../", import.meta.url));
const AGENTDESK = join(REPO, "bin/agentdesk.js");
const SCRIPT_TIMEOUT_MS = 90_000;

type Block = { line: number; text: string; directive: "run" | "skip" | "stop-first" };

/** The README's ```sh blocks with the line each starts on and the directive before it. */
function shellBlocks(markdown: string): Block[] {
  const blocks: Block[] = [];
  const lines = markdown.split("\n");
  for (let index = 0; index < lines.length; index += 1) {
    if (lines[index] !== "```sh") continue;
    const end = lines.indexOf("```", index + 1);
    const before = lines.slice(0, index).findLast((line) => line.trim() !== "") ?? "";
    const marker = /^<!-- readme-test: (skip \(.+\)|stop the service first) -->$/.exec(before);
    blocks.push({
      line: index + 1,
      text: lines.slice(index + 1, end).join("\n"),
      directive: !marker ? "run" : marker[1]!.startsWith("skip") ? "skip" : "stop-first",
    });
    index = end;
  }
  return blocks;
}

async function freePort(): Promise<number> {
  const server = createNetServer();
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, "close");
  return port;
}

/**
 * `workDir`: the walkthrough's directory, removed afterwards; `site`: the web page a datasource
 * fetches and the URL an event subscription posts to, with the requests it `received`.
 */
const test = base
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from it.
  .extend("workDir", { scope: "file" }, ({}, { onCleanup }) => {
    const workDir = mkdtempSync(join(tmpdir(), "agentdesk-readme-"));
    onCleanup(() => rmSync(workDir, { recursive: true, force: true }));
    return workDir;
  })
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from it.
  .extend("site", { scope: "file" }, async ({}, { onCleanup }) => {
    const received: { method: string; url: string }[] = [];
    const site = createServer((request, response) => {
      received.push({ method: request.method!, url: request.url! });
      if (request.method === "GET" && request.url === "/faq") {
        response.setHeader("content-type", "text/html");
        response.end(
          "<html><head><title>FAQ</title></head><body><h1>FAQ</h1>" +
            "<p>Parcels leave the warehouse every weekday before noon.</p></body></html>",
        );
        return;
      }
      if (request.method === "POST" && request.url === "/agentdesk") {
        request.resume();
        request.on("end", () => response.writeHead(204).end());
        return;
      }
      response.writeHead(404).end();
    });
    site.listen(0, "127.0.0.1");
    await once(site, "listening");
    onCleanup(() => {
      site.close();
    });
    return { url: `http://127.0.0.1:${(site.address() as { port: number }).port}`, received };
  });

// The script runs against a service process of its own on the embedded database, as a newcomer's
// first start does: the project's database (PGlite or PostgreSQL) plays no part, so it runs in
// the pglite project only. About 25 s: the service's start, then some 60 requests and the CLI.
describe.skipIf(testDatabaseKind !== "pglite")("README walkthrough", () => {
  test("runs every shell block of README.md in order", {
    timeout: SCRIPT_TIMEOUT_MS + 60_000,
  }, async ({ workDir, site, onTestFinished }) => {
    const dataDir = join(workDir, "data");
    let service: ChildProcess | undefined;
    let bash: ChildProcess | undefined;
    onTestFinished(async () => {
      bash?.kill("SIGKILL");
      if (service && service.exitCode === null && service.signalCode === null) {
        service.kill("SIGKILL");
        await once(service, "exit");
      }
    });
    const [port, sitePort] = [await freePort(), await freePort()];
    const apiUrl = `http://127.0.0.1:${port}`;
    const local = site.url;

    // The embedded database as the run's global setup migrated it: a first start skips initdb.
    mkdirSync(join(dataDir, "pglite"), { recursive: true });
    const untar = spawn("tar", ["-xf", inject("pgliteSnapshot"), "-C", join(dataDir, "pglite")]);
    expect((await once(untar, "exit"))[0]).toBe(0);

    // `npm start | tee agentdesk.log`: the built service, its output kept where the README reads
    // the key and the setup link from.
    const log = createWriteStream(join(workDir, "agentdesk.log"));
    service = spawn(process.execPath, [AGENTDESK, "serve"], {
      cwd: workDir,
      env: {
        PATH: process.env.PATH,
        DATA_DIR: dataDir,
        PORT: String(port),
        SITE_PORT: String(sitePort),
        ADMIN_TOKEN: "change-me",
        LOG_LEVEL: "warn",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    service.stdout!.pipe(log);
    service.stderr!.pipe(log);
    await new Promise<void>((resolveStart, reject) => {
      let banner = "";
      service!.stdout!.on("data", (chunk: Buffer) => {
        banner += chunk.toString();
        if (banner.includes("/console/setup?token=")) resolveStart();
      });
      service!.on("exit", () => reject(new Error(`agentdesk serve exited:\n${banner}`)));
    });

    const readme = readFileSync(join(REPO, "README.md"), "utf8");
    const rewrites: [string, string][] = [
      ["http://127.0.0.1:3000", apiUrl],
      ["http://127.0.0.1:3001", `http://127.0.0.1:${sitePort}`],
      ["https://example.com/faq", `${local}/faq`],
      ["https://hooks.example.com/agentdesk", `${local}/agentdesk`],
    ];
    for (const [from] of rewrites) expect(readme, `README.md mentions ${from}`).toContain(from);

    const blocks = shellBlocks(readme);
    const steps = blocks
      .filter((block) => block.directive !== "skip")
      .map((block) => {
        const text = rewrites.reduce((body, [from, to]) => body.replaceAll(from, to), block.text);
        const stop = block.directive === "stop-first" ? "stop_service\n" : "";
        return `echo "::: README.md line ${block.line}" >&2\n${stop}${text}\n`;
      });
    const script = [
      "set -euo pipefail",
      // An HTTP error status fails the command (and so the script), its body still shown.
      'curl() { command curl --fail-with-body "$@"; }',
      // `npx agentdesk` is the checkout's own command.
      `npx() { [ "$1" = agentdesk ] || return 1; shift; node ${JSON.stringify(AGENTDESK)} "$@"; }`,
      `stop_service() { kill -TERM ${service.pid}; while kill -0 ${service.pid} 2>/dev/null; do sleep 0.2; done; }`,
      ...steps,
      'echo "::: done" >&2',
    ].join("\n");
    writeFileSync(join(workDir, "readme.sh"), script);

    const outputPath = join(workDir, "output.txt");
    const output = openSync(outputPath, "w");
    const started = Date.now();
    bash = spawn("bash", ["readme.sh"], {
      cwd: workDir,
      env: { PATH: process.env.PATH, HOME: workDir, DATA_DIR: dataDir },
      stdio: ["ignore", output, output],
    });
    closeSync(output);
    const timer = setTimeout(() => bash!.kill("SIGKILL"), SCRIPT_TIMEOUT_MS);
    const [code] = await once(bash, "exit");
    clearTimeout(timer);
    const printed = readFileSync(outputPath, "utf8");
    const context = `bash exited with ${code} after ${Date.now() - started} ms:\n${printed}\n\nservice log:\n${readFileSync(join(workDir, "agentdesk.log"), "utf8")}`;
    expect(code, context).toBe(0);
    expect(printed, context).toContain("::: done");

    // The leads examples find the lead the walkthrough stored (the list, then the export).
    expect(printed).toMatch(/"email":"jane@example.com"[^\n]*"source":"roi-calculator"/);
    expect(printed).toMatch(/^"[^"]+","[^"]+","Jane Doe","jane@example.com",/m);
    // The example.com addresses were answered here, not on the internet.
    expect(site.received).toContainEqual({ method: "GET", url: "/faq" });
    // Every marker is one the test understood: a misspelt one would run or skip a block unseen.
    const markers = readme.match(/<!-- readme-test:.*-->/g) ?? [];
    expect(markers.length).toBe(blocks.filter((block) => block.directive !== "run").length);
  });
});
