import type { LoadBudget } from "./load-budget.ts";
import { DocumentLoadError } from "./loader-errors.ts";
import { decodeOrFail } from "./loader-text.ts";
import type { LoadedSection } from "./loader-types.ts";

const MAX_DEPTH = 200;

/**
 * JSON as one "path: value" line per leaf (`items[0].name: Alice`), so every value keeps the keys
 * that give it meaning even after the text is split into chunks; array elements that are objects
 * are separated by a blank line so each record stays one paragraph.
 */
export async function loadJson(bytes: Uint8Array, budget: LoadBudget): Promise<LoadedSection[]> {
  const text = decodeOrFail(bytes, "JSON file");
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new DocumentLoadError("The JSON file could not be parsed: it is not valid JSON");
  }
  const lines: string[] = [];
  flatten(value, "", 0, lines);
  const rendered = lines
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
  return rendered === "" ? [] : [budget.add({ text: rendered, metadata: {} })];
}

function flatten(value: unknown, path: string, depth: number, lines: string[]): void {
  if (depth > MAX_DEPTH) {
    throw new DocumentLoadError(`The JSON file is nested more than ${MAX_DEPTH} levels deep`);
  }
  if (Array.isArray(value)) {
    if (value.length === 0) {
      lines.push(`${path || "(root)"}: []`);
      return;
    }
    value.forEach((item, index) => {
      if (index > 0 && isContainer(item)) lines.push("");
      flatten(item, `${path}[${index}]`, depth + 1, lines);
    });
    return;
  }
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value);
    if (entries.length === 0) {
      lines.push(`${path || "(root)"}: {}`);
      return;
    }
    for (const [key, item] of entries)
      flatten(item, path ? `${path}.${key}` : key, depth + 1, lines);
    return;
  }
  const scalar = value === null ? "null" : String(value);
  lines.push(path ? `${path}: ${scalar}` : scalar);
}

function isContainer(value: unknown): boolean {
  return value !== null && typeof value === "object";
}
