import type { LoadedSection, LoadInput, LoadLimits } from "../loaders/loader-types.ts";

/**
 * What the service asks a parser thread to do: read one document or one web page's HTML, or cut
 * loaded sections into chunks (seconds of CPU for a document of millions of characters).
 */
export type ParseTask =
  | { kind: "document"; input: LoadInput; limits: LoadLimits }
  | { kind: "html"; html: string; url: string }
  | { kind: "split"; sections: LoadedSection[]; sourceUrl: string | null };
