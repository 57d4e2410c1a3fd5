import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { DEFAULT_MODEL_CATALOG } from "../../src/models/model-catalog.ts";

describe("docs/models.md", () => {
  test("shows the catalog exactly as the code has it", () => {
    const markdown = readFileSync(new URL("../../docs/models.md", import.meta.url), "utf8");
    const documented = Object.fromEntries(
      [
        ...markdown.matchAll(/^\| (\w+)\s+\| (\w+)\s+\| (\S+)\s+\|\s+([\d.]+) \|\s+([\d.]+) \|$/gm),
      ].map(([, name, provider, providerModelId, input, output]) => [
        name,
        {
          provider,
          providerModelId,
          inputCreditsPerMillion: Number(input),
          outputCreditsPerMillion: Number(output),
        },
      ]),
    );
    expect(documented).toEqual(DEFAULT_MODEL_CATALOG);
  });
});
