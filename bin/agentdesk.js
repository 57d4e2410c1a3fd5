#!/usr/bin/env node
// The installed command runs the JavaScript that `npm run build` compiles into dist/
// (`npm ci` and `npm start` build it when it is missing or older than src/).
import { existsSync } from "node:fs";

const main = new URL("../dist/main.js", import.meta.url);
if (!existsSync(main)) {
  process.stderr.write("agentdesk: dist/ is missing; run `npm run build` first\n");
  process.exit(1);
}
await import(main.href);
