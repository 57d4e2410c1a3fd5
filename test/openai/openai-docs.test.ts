import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { OPENAI_KINDS } from "../../src/http/routes/openai/openai-errors.ts";
import { ERROR_STATUS, type ErrorType } from "../../src/lib/errors.ts";

/** Codes the OpenAI routes set themselves (OpenAiError, the not-found handler). */
const ROUTE_CODES = ["model_not_found", "previous_response_not_found", "unknown_url"];

describe("docs/openai-api.md", () => {
  test("gives each error status the type and code the /v1 error handler answers", () => {
    const markdown = readFileSync(new URL("../../docs/openai-api.md", import.meta.url), "utf8");
    const rows = [
      ...markdown.matchAll(/^\| ([\d, ]+) \| `(\w+)` \| (?:`(\w+)`|null) \|/gm),
    ].flatMap(([, statuses, type, code]) =>
      (statuses ?? "").split(", ").map((status) => ({ status: Number(status), type, code })),
    );
    expect(rows.length).toBeGreaterThanOrEqual(12);
    for (const row of rows) {
      const answered = (Object.keys(ERROR_STATUS) as ErrorType[])
        .filter((errorType) => ERROR_STATUS[errorType] === row.status)
        .map((errorType) => OPENAI_KINDS[errorType]);
      const matches = answered.some(
        (kind) =>
          kind.type === row.type &&
          (kind.code === (row.code ?? null) || ROUTE_CODES.includes(row.code ?? "")),
      );
      expect(matches, JSON.stringify(row)).toBe(true);
    }
  });
});
