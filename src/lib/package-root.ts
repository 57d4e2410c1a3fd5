import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The repository (or installed package) root: the nearest directory with a package.json above
 * the running code, whether it runs from src/ (tsx) or dist/ (the build).
 */
export function packageRoot(): string {
  let directory = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(directory, "package.json"))) {
    const parent = dirname(directory);
    if (parent === directory) throw new Error("agentdesk: no package.json above the server code");
    directory = parent;
  }
  return directory;
}
