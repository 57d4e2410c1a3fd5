// Questions rarely contain every word of the passage that answers them, so the full-text side
// matches ANY of the query's words and lets ts_rank order passages by how many (and how rare)
// of them they contain; PostgreSQL's `english` configuration drops stopwords and stems the rest.
const MAX_TERMS = 64;
const WORD = /[\p{L}\p{N}]+/gu;

/** A `to_tsquery` expression OR-ing the words of a free-text query; null when it has none. */
export function anyWordTsQuery(query: string): string | null {
  const words = new Set<string>();
  for (const match of query.normalize("NFC").toLowerCase().matchAll(WORD)) {
    words.add(match[0]);
    if (words.size >= MAX_TERMS) break;
  }
  // Quoting each word keeps to_tsquery from reading any character of it as an operator.
  return words.size === 0 ? null : [...words].map((word) => `'${word}'`).join(" | ");
}
