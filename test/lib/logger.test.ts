import { Writable } from "node:stream";
import { describe, expect, test } from "vitest";
import { createLogger } from "../../src/lib/logger.ts";

function capture() {
  const lines: Array<Record<string, unknown>> = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  return { lines, logger: createLogger("info", "json", destination) };
}

describe("the logger's redaction", () => {
  test("hides secrets and prompts at the top level and one level down", () => {
    const { lines, logger } = capture();
    logger.info({ apiKey: "adk_secret", prompt: "a customer's words" }, "top");
    logger.info({ agent: { systemPrompt: "be kind", token: "t0k3n" } }, "nested");
    expect(lines[0]).toMatchObject({ apiKey: "[redacted]", prompt: "[redacted]" });
    expect(lines[1]).toMatchObject({ agent: { systemPrompt: "[redacted]", token: "[redacted]" } });
    expect(JSON.stringify(lines)).not.toMatch(/adk_secret|customer's words|be kind|t0k3n/);
  });
});
