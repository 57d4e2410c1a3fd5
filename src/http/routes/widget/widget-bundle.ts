import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export type WidgetBundle = { body: Buffer; etag: string };

/** The repository (or installed package) root: the nearest directory with a package.json. */
function packageRoot(): string {
  let directory = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(directory, "package.json"))) {
    const parent = dirname(directory);
    if (parent === directory) throw new Error("agentdesk: no package.json above the server code");
    directory = parent;
  }
  return directory;
}

/** Where the build (scripts/build.mjs) writes the chat widget's bundle. */
const widgetBundlePath = () => join(packageRoot(), "dist", "public", "widget.js");

/**
 * The bundle as built, read once: the same bytes and ETag until the process restarts (a new
 * build is served by the next start). Null when the build has not run.
 */
export function loadWidgetBundle(): () => WidgetBundle | null {
  let cached: WidgetBundle | null = null;
  return () => {
    if (cached) return cached;
    const path = widgetBundlePath();
    if (!existsSync(path)) return null;
    const body = readFileSync(path);
    const hash = createHash("sha256").update(body).digest("base64url").slice(0, 22);
    cached = { body, etag: `"${hash}"` };
    return cached;
  };
}
