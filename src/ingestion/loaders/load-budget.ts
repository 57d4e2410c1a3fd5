import { DocumentLoadError } from "./loader-errors.ts";
import type { LoadedSection, ResolvedLoadLimits } from "./loader-types.ts";

/**
 * Enforces the page and character limits of one load; loaders call it as they go. Time and memory
 * are not checked here: the parser thread running the load is terminated when either runs out
 * (src/ingestion/parser/document-parser.ts), which also stops a parser stuck inside one page.
 */
export type LoadBudget = {
  readonly limits: ResolvedLoadLimits;
  checkPages(count: number, unit: "pages" | "slides"): void;
  /** Counts a section's characters and returns it, refusing once the document is over the cap. */
  add(section: LoadedSection): LoadedSection;
  /** Refuses now if `pending` more characters would take the document over the cap. */
  assertFits(pending: number): void;
};

export function createLoadBudget(limits: ResolvedLoadLimits): LoadBudget {
  let characters = 0;
  const tooMuchText = () =>
    new DocumentLoadError(
      `The document holds more than ${limits.maxCharacters} characters of text; the limit is ${limits.maxCharacters}`,
    );
  return {
    limits,
    checkPages(count, unit) {
      if (count > limits.maxPages) {
        throw new DocumentLoadError(
          `The document has ${count} ${unit}; the limit is ${limits.maxPages}`,
        );
      }
    },
    add(section) {
      characters += section.text.length;
      if (characters > limits.maxCharacters) throw tooMuchText();
      return section;
    },
    assertFits(pending) {
      if (characters + pending > limits.maxCharacters) throw tooMuchText();
    },
  };
}
