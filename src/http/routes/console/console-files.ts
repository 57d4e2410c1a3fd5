import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { extname, join } from "node:path";
import { packageRoot } from "../../../lib/package-root.ts";

export type ConsoleFile = { body: Buffer; type: string; etag: string };

export type ConsoleFiles = {
  /** The page every console path answers with, for the browser's router to draw. */
  page: ConsoleFile;
  /** The hashed scripts and styles under /console/assets/, by file name. */
  assets: Map<string, ConsoleFile>;
};

const TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
};

/** Where the build (scripts/build.mjs) writes the console. */
const consoleDirectory = () => join(packageRoot(), "dist", "public", "console");

/** The placeholder of the build's index.html for the path before /console (PUBLIC_URL's). */
const BASE_PLACEHOLDER = "__AGENTDESK_BASE__";

const escapeAttribute = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");

function fileOf(body: Buffer, type: string): ConsoleFile {
  const hash = createHash("sha256").update(body).digest("base64url").slice(0, 22);
  return { body, type, etag: `"${hash}"` };
}

/**
 * The built console, read once on first use (a few hundred kilobytes): the same bytes until the
 * process restarts. Null when the build has not run. `basePath` is PUBLIC_URL's path ("" when
 * the service is at the root of its host).
 */
export function loadConsoleFiles(basePath: string): () => ConsoleFiles | null {
  let cached: ConsoleFiles | null = null;
  return () => {
    if (cached) return cached;
    const directory = consoleDirectory();
    const index = join(directory, "index.html");
    if (!existsSync(index)) return null;
    const html = readFileSync(index, "utf8").replaceAll(
      BASE_PLACEHOLDER,
      escapeAttribute(basePath),
    );
    const assets = new Map<string, ConsoleFile>();
    const assetDirectory = join(directory, "assets");
    for (const name of readdirSync(assetDirectory)) {
      const type = TYPES[extname(name)];
      if (type) assets.set(name, fileOf(readFileSync(join(assetDirectory, name)), type));
    }
    cached = { page: fileOf(Buffer.from(html), "text/html; charset=utf-8"), assets };
    return cached;
  };
}
