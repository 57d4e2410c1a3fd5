import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { parseConfig } from "../../src/config/index.ts";
import { INCREMENT_MODELS } from "../../src/domain/billing/usage-models.ts";
import { createModelRegistry } from "../../src/models/model-registry.ts";

describe("docs/billing.md", () => {
  test("lists every usage-endpoint pair with the price the registry charges", () => {
    const markdown = readFileSync(new URL("../../docs/billing.md", import.meta.url), "utf8");
    const documented = [
      ...markdown.matchAll(/^\| ([\w-]+)\s+\| (\S+)\s+\|\s+([\d.]+) \|\s+([\d.]+) \|$/gm),
    ].map(([, provider, modelName, input, output]) => ({
      provider,
      modelName,
      input: Number(input),
      output: Number(output),
    }));
    const registry = createModelRegistry(parseConfig({}).models.registry);
    const expected = Object.entries(INCREMENT_MODELS).flatMap(([provider, models]) =>
      models.map((modelName) => ({
        provider,
        modelName,
        ...registry.priceOf(provider, modelName),
      })),
    );
    expect(documented).toEqual(expected);
  });
});
