import { porterStem } from "./porter-stemmer.ts";

// Function words carry no topic, and without corpus statistics (no idf: the embedder must give a
// text the same vector whatever else is indexed) this fixed list is what keeps "how do I" from
// dominating short queries.
const STOPWORDS = new Set(
  (
    "a about above after again against all am an and any are as at be because been before being " +
    "below between both but by can could did do does doing down during each few for from further " +
    "had has have having he her here hers herself him himself his how i if in into is it its " +
    "itself just me more most my myself no nor not now of off on once only or other our ours " +
    "ourselves out over own same she should so some such than that the their theirs them " +
    "themselves then there these they this those through to too under until up very was we were " +
    "what when where which while who whom why will with would you your yours yourself yourselves " +
    "s t d ll m re ve don doesn didn isn aren wasn weren won wouldn shouldn couldn cannot can't " +
    "also get got may might must shall us let"
  ).split(" "),
);

const WORD = /[\p{L}\p{N}]+/gu;
const COMBINING_MARK = /\p{M}/gu;

export type WordOptions = { stopwords: boolean; stemming: "none" | "porter" };

/**
 * Lower-cased words of the text after NFKD normalisation with diacritics removed ("Café" and
 * "cafe" are one word; full-width digits become ASCII). Locale-independent.
 */
export function normalisedWords(text: string): string[] {
  const folded = text.normalize("NFKD").replace(COMBINING_MARK, "").toLowerCase();
  return folded.match(WORD) ?? [];
}

/**
 * The words the embedder hashes: stopwords removed when asked (unless nothing else is left, so a
 * query made only of function words still gets a vector) and stemmed when asked. The optional
 * cache spares re-stemming the same words across the texts of one call.
 */
export function contentWords(
  words: string[],
  options: WordOptions,
  stemCache: Map<string, string> = new Map(),
): string[] {
  let kept = words;
  if (options.stopwords) {
    const filtered = words.filter((word) => !STOPWORDS.has(word));
    if (filtered.length > 0) kept = filtered;
  }
  if (options.stemming !== "porter") return kept;
  return kept.map((word) => {
    let stem = stemCache.get(word);
    if (stem === undefined) {
      stem = porterStem(word);
      stemCache.set(word, stem);
    }
    return stem;
  });
}
