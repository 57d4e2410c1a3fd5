import { type SQL, sql } from "drizzle-orm";
import { type Db, rowsOf } from "../db/client.ts";

/**
 * Lexemes estimated to occur in more chunks than this are left out of the full-text query, like a
 * stopword list learnt from the data: ranking every chunk that contains them is what makes a
 * full-text query slow on a large table, and such frequent words say little about relevance
 * anyway (BM25 gives them a small idf). Small tables keep every lexeme.
 */
const COMMON_LEXEME_MATCHES = 5_000;
const STATISTICS_TTL_MS = 5 * 60_000;

/** True when the query has at least one word or number the full-text side could match. */
export function hasSearchableWords(query: string): boolean {
  return /[\p{L}\p{N}]/u.test(query);
}

/**
 * The lexemes that many chunks contain, read from the statistics ANALYZE (or autovacuum) keeps
 * on the tsvector column and cached for a few minutes; empty before the first ANALYZE.
 */
export function createCommonLexemes(db: Db, now: () => number = Date.now) {
  let cached: { at: number; value: string[] } | null = null;
  return async function commonLexemes(): Promise<string[]> {
    if (cached && now() - cached.at < STATISTICS_TTL_MS) return cached.value;
    const rows = rowsOf<{ element: string }>(
      await db.execute(sql`
        select e.element
        from pg_stats s
        join pg_class t on t.relname = s.tablename and t.relnamespace = to_regnamespace(s.schemaname),
          unnest(s.most_common_elems::text::text[], s.most_common_elem_freqs) as e(element, share)
        where s.schemaname = current_schema() and s.tablename = 'knowledge_chunks'
          and s.attname = 'search' and e.element is not null
          and e.share * t.reltuples > ${COMMON_LEXEME_MATCHES}`),
    );
    cached = { at: now(), value: rows.map((row) => row.element) };
    return cached.value;
  };
}

/**
 * The question's lexemes as PostgreSQL's `english` configuration makes them (stopwords dropped,
 * the rest stemmed), so they match the chunks' `search` column exactly: a `text[]` expression, for
 * a statement that reads them along with something else.
 */
export const questionLexemesSql = (queryText: string): SQL =>
  sql`tsvector_to_array(to_tsvector('english', ${queryText}))`;

/** The question's lexemes (questionLexemesSql) in a statement of their own. */
export async function questionLexemes(db: Db, queryText: string): Promise<string[]> {
  const rows = rowsOf<{ lexemes: string[] }>(
    await db.execute(sql`select ${questionLexemesSql(queryText)} as lexemes`),
  );
  return rows[0]!.lexemes;
}

/**
 * The lexemes the full-text side searches for: ANY of them may match, since questions rarely
 * contain every word of the passage that answers them (BM25 then favours passages with more of
 * them, the rarer the more). Common lexemes are left out, unless the question has nothing else;
 * null when there is no lexeme.
 */
export function chosenLexemes(lexemes: string[], common: string[]): string[] | null {
  const commonSet = new Set(common);
  const rare = lexemes.filter((lexeme) => !commonSet.has(lexeme));
  const chosen = rare.length > 0 ? rare : lexemes;
  return chosen.length > 0 ? chosen : null;
}

/**
 * A tsquery matching ANY of the lexemes, each taken as it is (cast with `::tsquery`, no parser,
 * so a hyphenated word or an e-mail address stays one operand and matches the chunks containing
 * that lexeme, as the application's postings do). It is sent as a value, not computed in the
 * statement, so the planner sees it: it then knows how many chunks match and whether the GIN
 * index pays.
 */
export function anyLexemeQuery(lexemes: readonly string[]): string {
  // Each lexeme is a quoted operand: backslash and quote escaped inside the quotes.
  return lexemes.map((lexeme) => `'${lexeme.replace(/[\\']/g, (c) => `\\${c}`)}'`).join(" | ");
}
