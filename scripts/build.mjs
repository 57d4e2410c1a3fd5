#!/usr/bin/env node
// Compiles src/ into dist/, which bin/agentdesk.js runs (`npm run build`), bundles the chat
// widget (widget/, browser code) with esbuild into dist/public/widget.js and the operator console
// (console/, a React app) into dist/public/console/. With --if-stale it
// builds only when a source is newer than the last build: `npm start`, `npm ci` and the test
// run call it that way, and it answers in tens of milliseconds when nothing changed.
//
// tsc emits without type checking (--noCheck): `npm run typecheck` checks src/ with the tests,
// and checking again here would more than double the build's time (27.5 s instead of 11.1 s on
// a busy two-core machine). isolatedModules guarantees each file compiles on its own.
//
// Why not esbuild, which transpiles src/ in 1.0 s? Without bundling it leaves the `.ts` in
// relative imports, which node cannot load; bundling would move code away from the files it
// finds by import.meta.url (the migrations) and add a direct dependency. The build runs only
// when a source changed, and tsc is already installed and emits one file per source, so a stack
// trace names the file to open.
import { spawnSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const dist = join(root, "dist");
const stampFile = join(dist, ".build-stamp");
// What the output depends on. A file added to or deleted from src/ changes its directory's mtime.
const INPUTS = [
  "src",
  "widget",
  "console",
  "tsconfig.json",
  "tsconfig.build.json",
  "scripts/build.mjs",
];
// What the compiled code reads at run time, copied to the same place relative to it.
const ASSETS = ["db/migrations"];

function newestChange(path) {
  const stats = statSync(path);
  let newest = stats.mtimeMs;
  if (stats.isDirectory()) {
    for (const entry of readdirSync(path)) {
      newest = Math.max(newest, newestChange(join(path, entry)));
    }
  }
  return newest;
}

function isStale() {
  if (!existsSync(stampFile)) return true;
  const builtAt = statSync(stampFile).mtimeMs;
  return INPUTS.some((input) => newestChange(join(root, input)) > builtAt);
}

function resolveTsc() {
  try {
    return createRequire(import.meta.url).resolve("typescript/bin/tsc");
  } catch {
    return null;
  }
}

function resolveEsbuild() {
  try {
    return createRequire(import.meta.url).resolve("esbuild");
  } catch {
    return null;
  }
}

/** The chat widget (widget/), one minified script for browsers: dist/public/widget.js. */
async function bundleWidget(staging) {
  const esbuild = await import("esbuild");
  await esbuild.build({
    entryPoints: [join(root, "widget", "main.ts")],
    outfile: join(staging, "public", "widget.js"),
    bundle: true,
    minify: true,
    format: "iife",
    target: ["chrome100", "firefox100", "safari15"],
    legalComments: "none",
    logLevel: "warning",
  });
}

/**
 * The operator console (console/): its entry script and stylesheet plus one chunk per area,
 * loaded when first opened (esbuild's code splitting, ES modules), every name hashed so browsers
 * keep them for a year; and its page, naming the entry's files. `__AGENTDESK_BASE__` is
 * PUBLIC_URL's path, written in by the service when it serves the page.
 */
async function bundleConsole(staging) {
  const esbuild = await import("esbuild");
  const outdir = join(staging, "public", "console");
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: { main: "console/src/main.tsx" },
    outdir: join(outdir, "assets"),
    bundle: true,
    splitting: true,
    format: "esm",
    minify: true,
    jsx: "automatic",
    entryNames: "[name]-[hash]",
    chunkNames: "[name]-[hash]",
    assetNames: "[name]-[hash]",
    define: { "process.env.NODE_ENV": '"production"' },
    target: ["chrome110", "firefox110", "safari16"],
    legalComments: "none",
    metafile: true,
    logLevel: "warning",
  });
  // Each area loaded with import() is an entry point too: the page names only the main one.
  const entry = Object.entries(result.metafile.outputs).find(
    ([, output]) => output.entryPoint === "console/src/main.tsx",
  );
  if (!entry) throw new Error("the console's build wrote no entry script");
  const [script, { cssBundle }] = entry;
  const assetName = (path) => path.slice(path.lastIndexOf("/") + 1);
  const base = "__AGENTDESK_BASE__";
  writeFileSync(
    join(outdir, "index.html"),
    `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="agentdesk-base" content="${base}">
<title>agentdesk console</title>
${cssBundle ? `<link rel="stylesheet" href="${base}/console/assets/${assetName(cssBundle)}">\n` : ""}<script type="module" src="${base}/console/assets/${assetName(script)}"></script>
</head>
<body>
<div id="root"></div>
<noscript>The agentdesk console needs JavaScript.</noscript>
</body>
</html>
`,
  );
}

async function build() {
  const startedAt = new Date();
  const tsc = resolveTsc();
  if (!tsc || !resolveEsbuild()) {
    // A production install (npm ci --omit=dev) has no compiler; it runs the dist/ it was given.
    if (existsSync(join(dist, "main.js"))) {
      process.stderr.write("agentdesk build: no typescript or esbuild; keeping dist/\n");
      return;
    }
    throw new Error(
      "typescript or esbuild is not installed: run `npm ci` (with dev dependencies) first",
    );
  }
  // Built aside and swapped in, so a process starting meanwhile never sees half a dist/.
  const staging = join(root, `.dist-${process.pid}`);
  const previous = join(root, `.dist-old-${process.pid}`);
  try {
    const compiled = spawnSync(
      process.execPath,
      [tsc, "-p", "tsconfig.build.json", "--noCheck", "--outDir", staging],
      { cwd: root, stdio: "inherit" },
    );
    if (compiled.status !== 0) throw new Error(`tsc exited with ${compiled.status}`);
    await bundleWidget(staging);
    await bundleConsole(staging);
    for (const asset of ASSETS) {
      cpSync(join(root, "src", asset), join(staging, asset), { recursive: true });
    }
    writeFileSync(join(staging, ".build-stamp"), "");
    // The build covers the sources as they were when it started.
    utimesSync(join(staging, ".build-stamp"), startedAt, startedAt);
    if (existsSync(dist)) renameSync(dist, previous);
    renameSync(staging, dist);
  } catch (error) {
    // Another build swapped its dist/ in between our two renames: keep that one.
    if (error.code !== "ENOTEMPTY" && error.code !== "EEXIST") throw error;
  } finally {
    rmSync(staging, { recursive: true, force: true });
    rmSync(previous, { recursive: true, force: true });
  }
  const seconds = ((Date.now() - startedAt.getTime()) / 1000).toFixed(1);
  process.stderr.write(`agentdesk build: compiled src/ into dist/ in ${seconds} s\n`);
}

try {
  if (!process.argv.includes("--if-stale") || isStale()) await build();
} catch (error) {
  process.stderr.write(`agentdesk build: ${error.message}\n`);
  process.exit(1);
}
