import { readdirSync, readFileSync } from "node:fs";
import { sql } from "drizzle-orm";
import { describe, expect } from "vitest";
import { type Db, rowsOf } from "../../src/db/client.ts";
import { BM25_B, BM25_K1, bm25Idf } from "../../src/retrieval/bm25.ts";
import { createChunkCopies } from "../../src/retrieval/chunk-copies.ts";
import type { ChunkSearch } from "../../src/retrieval/hybrid-search.ts";
import { type TextPostings, TextPostingsBuilder } from "../../src/retrieval/text-postings.ts";
import { questionLexemes } from "../../src/retrieval/text-query.ts";
import { encodeEmbedding } from "../../src/retrieval/vector-encoding.ts";
import { testDatabaseKind } from "../harness/database.ts";
import { databaseTest } from "../harness/fixtures.ts";
import { searchOver } from "./search-over.ts";
import { createUnitVectors } from "./unit-vectors.ts";

// BM25 in the application against BM25 computed by the database from the chunks themselves, value
// for value, and the application's rankings against the hybrid search's SQL, on the help-centre
// corpus of the retrieval-quality test and its 89 questions.

const CORPUS = new URL("../fixtures/retrieval/corpus/", import.meta.url);
const QUESTIONS: Array<{ question: string }> = JSON.parse(
  readFileSync(new URL("../fixtures/retrieval/questions.json", import.meta.url), "utf8"),
);
const DIMENSIONS = 4;
/** Relative difference allowed between two BM25 scores: the logarithms' last bit. */
const TOLERANCE = 1e-12;

const test = databaseTest();

/** Every paragraph of every document, plus chunks that reach tsvector's limits. */
function corpusChunks(): Array<{ id: string; datasource: string; text: string }> {
  const chunks: Array<{ id: string; datasource: string; text: string }> = [];
  const documents = readdirSync(CORPUS).filter((name) => name.endsWith(".md"));
  for (const [index, name] of documents.entries()) {
    const text = readFileSync(new URL(name, CORPUS), "utf8");
    const paragraphs = text.split(/\n\s*\n/).filter((part) => part.trim() !== "");
    for (const [position, paragraph] of paragraphs.entries()) {
      chunks.push({ id: `${name}-${position}`, datasource: `file-${index % 3}`, text: paragraph });
    }
  }
  const everything = documents.map((name) => readFileSync(new URL(name, CORPUS), "utf8"));
  // Positions past 16,383 are clamped, and a lexeme keeps at most 256 of them.
  chunks.push({ id: "whole-corpus", datasource: "file-0", text: everything.join("\n").repeat(3) });
  chunks.push({ id: "refund-refund", datasource: "file-1", text: "refund ".repeat(400) });
  chunks.push({ id: "empty", datasource: "file-2", text: "the and of" });
  return chunks;
}

const unitVector = createUnitVectors(DIMENSIONS, 11);

async function datastoreVersion(db: Db) {
  const [row] = rowsOf<{ knowledge_version: string | number }>(
    await db.execute(sql`select knowledge_version from datastores where id = 'help'`),
  );
  return [{ id: "help", knowledgeVersion: Number(row!.knowledge_version) }];
}

/**
 * BM25 of every chunk containing one of the lexemes, computed by the database from the chunks
 * alone (no kept statistics): the reference both rankings must give.
 */
async function databaseScores(db: Db, lexemes: string[]): Promise<Map<string, number>> {
  const rows = rowsOf<{ id: string; relevance: number | string }>(
    await db.execute(sql`
      with chunks as (
        select id, search,
          (select sum(coalesce(array_length(u.positions, 1), 1)) from unnest(search) u) as size
        from knowledge_chunks where datastore_id = 'help'),
      totals as (select count(*)::float8 as n, sum(size)::float8 / count(*) as average from chunks),
      frequencies as (
        select u.lexeme, count(*) as df from chunks, unnest(chunks.search) u
        where u.lexeme in ${[...new Set(lexemes)]} group by u.lexeme),
      terms as (
        select lexeme, ln(1 + (n - df + 0.5) / (df + 0.5)) as idf from frequencies, totals)
      select c.id, sum(t.idf * coalesce(array_length(u.positions, 1), 1) * ${BM25_K1 + 1}::float8
        / (coalesce(array_length(u.positions, 1), 1)
           + ${BM25_K1}::float8 * (1 - ${BM25_B}::float8 + ${BM25_B}::float8 * c.size / totals.average))) as relevance
      from chunks c cross join totals, unnest(c.search) u join terms t on t.lexeme = u.lexeme
      group by c.id`),
  );
  return new Map(rows.map((row) => [row.id, Number(row.relevance)]));
}

/** The application's scores for the lexemes over one datastore's postings. */
function applicationScores(postings: TextPostings, ids: string[], lexemes: string[]) {
  const averageLength = postings.totalLength / postings.rowCount;
  const terms = [...new Set(lexemes)]
    .sort()
    .map((lexeme) => ({
      lexeme,
      idf: bm25Idf(postings.rowCount, postings.documentFrequency(lexeme)),
    }))
    .filter((term) => postings.documentFrequency(term.lexeme) > 0);
  const ours = new Map<string, number>();
  postings.rank(terms, averageLength, null, (row, relevance) => ours.set(ids[row]!, relevance));
  return ours;
}

function expectSameScores(ours: Map<string, number>, theirs: Map<string, number>) {
  expect([...ours.keys()].sort()).toEqual([...theirs.keys()].sort());
  for (const [id, score] of theirs) {
    expect(Math.abs(ours.get(id)! - score)).toBeLessThanOrEqual(TOLERANCE * score);
  }
}

async function loadPostings(db: Db): Promise<{ postings: TextPostings; ids: string[] }> {
  const rows = rowsOf<{ id: string; search: Uint8Array }>(
    await db.execute(
      sql`select id, tsvectorsend(search) as search from knowledge_chunks order by id`,
    ),
  );
  const builder = new TextPostingsBuilder();
  for (const row of rows) builder.add(row.search);
  return { postings: builder.build(), ids: rows.map((row) => row.id) };
}

test.beforeAll(async ({ database }) => {
  await database.db.execute(sql`insert into organizations (id, name) values ('org', 'Org')`);
  await database.db.execute(sql`
    insert into datastores (id, organization_id, name, embedder_id, dimensions)
    values ('help', 'org', 'Help', 'local:test', ${DIMENSIONS})`);
  for (const index of [0, 1, 2]) {
    await database.db.execute(sql`
      insert into datasources (id, organization_id, datastore_id, type, name)
      values (${`file-${index}`}, 'org', 'help', 'file', ${`file-${index}`})`);
  }
  for (const [position, chunk] of corpusChunks().entries()) {
    await database.db.execute(sql`
      insert into knowledge_chunks (id, organization_id, datastore_id, datasource_id, custom_id,
        position, text, start_offset, end_offset, token_count, content_hash, dimensions, embedding)
      values (${chunk.id}, 'org', 'help', ${chunk.datasource}, ${position % 2 === 0 ? "even" : null},
        ${position}, ${chunk.text}, 0, 1, 1, ${chunk.id}, ${DIMENSIONS},
        ${`{${encodeEmbedding(unitVector()).join(",")}}`}::real[])`);
  }
}, 120_000);

describe(`BM25 in the application (${testDatabaseKind})`, () => {
  test("gives every matching chunk the BM25 score the database computes from the chunks", async ({
    database,
  }) => {
    const { postings, ids } = await loadPostings(database.db);
    let compared = 0;
    for (const { question } of QUESTIONS) {
      const lexemes = await questionLexemes(database.db, question);
      if (lexemes.length === 0) continue;
      const theirs = await databaseScores(database.db, lexemes);
      expect(theirs.size).toBeGreaterThan(0);
      expectSameScores(applicationScores(postings, ids, lexemes), theirs);
      compared += theirs.size;
    }
    // Questions match many paragraphs each: the comparison covers thousands of values.
    expect(compared).toBeGreaterThan(2_000);
  });

  test("ranks the lexemes of one question alone, and repeated ones once", async ({ database }) => {
    const { postings, ids } = await loadPostings(database.db);
    for (const lexemes of [["refund"], ["refund", "refund", "deliveri"], ["zzzunknown"]]) {
      expectSameScores(
        applicationScores(postings, ids, lexemes),
        await databaseScores(database.db, lexemes),
      );
    }
  });

  test("weighs a rare lexeme above a common one, unlike ts_rank", async ({ database }) => {
    const { postings, ids } = await loadPostings(database.db);
    const common = "account";
    const rare = "deadbolt";
    expect(postings.documentFrequency(common)).toBeGreaterThan(
      4 * postings.documentFrequency(rare),
    );
    const scores = applicationScores(postings, ids, [common, rare]);
    const best = [...scores.entries()].sort((left, right) => right[1] - left[1])[0]![0];
    const [row] = rowsOf<{ text: string }>(
      await database.db.execute(sql`select text from knowledge_chunks where id = ${best}`),
    );
    expect(row!.text.toLowerCase()).toContain(rare);
  });

  test("ranks with the filters and ties as the hybrid search's SQL does", async ({ database }) => {
    const copies = createChunkCopies({
      db: database.db,
      maxBytes: 64 * 1024 * 1024,
      maxVectorValues: Infinity,
      vectorsFirst: true,
    });
    const copied = (await copies.of(await datastoreVersion(database.db), DIMENSIONS))!;
    const inDatabase = searchOver(database, 0);
    for (const filters of [
      undefined,
      { datasourceIds: ["file-1"] },
      { customIds: ["even"] },
      { datasourceIds: ["file-0", "file-2"], customIds: ["even"] },
    ]) {
      for (const { question } of QUESTIONS.slice(0, 20)) {
        const lexemes = await questionLexemes(database.db, question);
        if (lexemes.length === 0) continue;
        const hits = await inDatabase({
          datastores: await datastoreVersion(database.db),
          dimensions: DIMENSIONS,
          queryVector: [],
          queryText: question,
          queryLexemes: lexemes,
          topK: 30,
          mode: "text",
          ...(filters ? { filters } : {}),
        });
        expect(copied.rankText(lexemes, filters, 30)).toEqual(hits.map((hit) => hit.chunkId));
      }
    }
  });

  test("ranks hyphenated words, e-mail addresses, decimals and non-ASCII words as one lexeme", async ({
    database,
  }) => {
    const copies = createChunkCopies({
      db: database.db,
      maxBytes: 64 * 1024 * 1024,
      maxVectorValues: Infinity,
      vectorsFirst: true,
    });
    const copied = (await copies.of(await datastoreVersion(database.db), DIMENSIONS))!;
    const inDatabase = searchOver(database, 0);
    const { postings, ids } = await loadPostings(database.db);
    for (const question of [
      "Is two-factor sign-in 1.5 naïve?",
      "Is the two-factor sign-in for my wi-fi camera?",
      "Write to help@kestrel.example about it's O'Brien's back\\slash",
    ]) {
      const lexemes = await questionLexemes(database.db, question);
      const ranked = copied.rankText(lexemes, undefined, 30);
      expect(ranked).not.toBeNull();
      const hits = await inDatabase({
        datastores: await datastoreVersion(database.db),
        dimensions: DIMENSIONS,
        queryVector: [],
        queryText: question,
        queryLexemes: lexemes,
        topK: 30,
        mode: "text",
      });
      expect(ranked).toEqual(hits.map((hit) => hit.chunkId));
      expect(lexemes.some((lexeme) => !/^[a-z0-9]+$/.test(lexeme))).toBe(true);
      expectSameScores(
        applicationScores(postings, ids, lexemes),
        await databaseScores(database.db, lexemes),
      );
    }
  });

  test("returns the same hits with and without the copies, in every mode", async ({ database }) => {
    const search = (exactCacheBytes: number) => searchOver(database, exactCacheBytes);
    const [withCopies, inDatabase] = [search(64 * 1024 * 1024), search(0)];
    for (const mode of ["text", "hybrid"] as const) {
      for (const queryText of [
        ...QUESTIONS.slice(0, 15).map((entry) => entry.question),
        "Is the two-factor sign-in for my wi-fi camera?",
      ]) {
        const request: ChunkSearch = {
          datastores: await datastoreVersion(database.db),
          dimensions: DIMENSIONS,
          queryVector: unitVector(),
          queryText,
          topK: 6,
          mode,
        };
        const hits = await withCopies(request);
        expect(hits.length).toBeGreaterThan(0);
        expect(hits).toEqual(await inDatabase(request));
      }
    }
  });
});
