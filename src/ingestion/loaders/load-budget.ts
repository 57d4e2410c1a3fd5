import { DocumentLoadError } from "./loader-errors.ts";
import type { LoadedSection, ResolvedLoadLimits } from "./loader-types.ts";

/** Enforces the time, page and character limits of one load; loaders call it between units of work. */
export type LoadBudget = {
  readonly limits: ResolvedLoadLimits;
  checkTime(): void;
  checkPages(count: number, unit: "pages" | "slides"): void;
  /** Counts a section's characters and returns it, refusing once the document is over the cap. */
  add(section: LoadedSection): LoadedSection;
};

export function createLoadBudget(
  limits: ResolvedLoadLimits,
  now: () => number = Date.now,
): LoadBudget {
  const deadline = now() + limits.timeoutMs;
  let characters = 0;
  return {
    limits,
    checkTime() {
      if (Date.now() >= deadline) {
        throw new DocumentLoadError(
          `Reading the document took longer than ${Math.round(limits.timeoutMs / 1000)} s; giving up`,
        );
      }
    },
    checkPages(count, unit) {
      if (count > limits.maxPages) {
        throw new DocumentLoadError(
          `The document has ${count} ${unit}; the limit is ${limits.maxPages}`,
        );
      }
    },
    add(section) {
      characters += section.text.length;
      if (characters > limits.maxCharacters) {
        throw new DocumentLoadError(
          `The document holds more than ${limits.maxCharacters} characters of text; the limit is ${limits.maxCharacters}`,
        );
      }
      return section;
    },
  };
}
