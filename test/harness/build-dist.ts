import { execFileSync } from "node:child_process";

/**
 * Tests that start `node bin/agentdesk.js` run the compiled dist/: rebuild it first when a
 * source changed since the last build (a no-op of tens of milliseconds otherwise), so
 * `npx vitest run` never tests yesterday's code.
 */
export default function setup(): void {
  execFileSync(process.execPath, ["scripts/build.mjs", "--if-stale"], { stdio: "inherit" });
}
