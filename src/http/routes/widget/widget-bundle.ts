import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { packageRoot } from "../../../lib/package-root.ts";

export type WidgetBundle = { body: Buffer; etag: string };

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
