import { readdirSync, readFileSync } from "node:fs";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, rowsOf } from "../../src/db/client.ts";
import { createChunkCopies } from "../../src/retrieval/chunk-copies.ts";
import type { ChunkSearch } from "../../src/retrieval/hybrid-search.ts";
import {
  isPlainLexeme,
  type TextPostings,
  TextPostingsBuilder,
} from "../../src/retrieval/text-postings.ts";
import { anyLexemeQuery, questionLexemes } from "../../src/retrieval/text-query.ts";
import { encodeEmbedding } from "../../src/retrieval/vector-encoding.ts";
import { createTestDatabase, testDatabaseKind } from "../harness/database.ts";
import { searchOver } from "./search-over.ts";
import { createUnitVectors } from "./unit-vectors.ts";

// The application's ts_rank against the database's own, value for value, on the help-centre
// corpus of the retrieval-quality test and its 89 questions.

const CORPUS = new URL("../fixtures/retrieval/corpus/", import.meta.url);
const QUESTIONS: Array<{ question: string }> = JSON.parse(
  readFileSync(new URL("../fixtures/retrieval/questions.json", import.meta.url), "utf8"),
);
const DIMENSIONS = 4;
let database: Database;

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

async function datastoreVersion() {
  const [row] = rowsOf<{ knowledge_version: string | number }>(
    await database.db.execute(sql`select knowledge_version from datastores where id = 'help'`),
  );
  return [{ id: "help", knowledgeVersion: Number(row!.knowledge_version) }];
}

/** ts_rank(search, query, 1) as the database computes it, for every chunk the query matches. */
async function databaseRanks(lexemes: string[]): Promise<Map<string, number>> {
  const rows = rowsOf<{ id: string; relevance: number | string }>(
    await database.db.execute(sql`
      select id, ts_rank(search, to_tsquery('simple', ${anyLexemeQuery(lexemes)}), 1)::float8 as relevance
      from knowledge_chunks
      where search @@ to_tsquery('simple', ${anyLexemeQuery(lexemes)})`),
  );
  return new Map(rows.map((row) => [row.id, Number(row.relevance)]));
}

async function loadPostings(): Promise<{ postings: TextPostings; ids: string[] }> {
  const rows = rowsOf<{ id: string; search: Uint8Array }>(
    await database.db.execute(
      sql`select id, tsvectorsend(search) as search from knowledge_chunks order by id`,
    ),
  );
  const builder = new TextPostingsBuilder();
  for (const row of rows) builder.add(row.search);
  return { postings: builder.build()!, ids: rows.map((row) => row.id) };
}

beforeAll(async () => {
  database = await createTestDatabase();
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
afterAll(() => database?.close());

describe(`full-text ranking in the application (${testDatabaseKind})`, () => {
  it("gives every matching chunk the database's ts_rank, to the bit", async () => {
    const { postings, ids } = await loadPostings();
    let compared = 0;
    for (const { question } of QUESTIONS) {
      const lexemes = (await questionLexemes(database.db, question)).filter(isPlainLexeme);
      if (lexemes.length === 0) continue;
      const ours = new Map<string, number>();
      postings.rank(lexemes, null, (row, relevance) => ours.set(ids[row]!, relevance));
      const theirs = await databaseRanks(lexemes);
      expect(theirs.size).toBeGreaterThan(0);
      expect(ours).toEqual(theirs);
      compared += theirs.size;
    }
    // Questions match many paragraphs each: the comparison covers thousands of values.
    expect(compared).toBeGreaterThan(2_000);
  });

  it("ranks the lexemes of one question alone, and repeated ones once", async () => {
    const { postings, ids } = await loadPostings();
    for (const lexemes of [["refund"], ["refund", "refund", "deliveri"], ["zzzunknown"]]) {
      const ours = new Map<string, number>();
      postings.rank(lexemes, null, (row, relevance) => ours.set(ids[row]!, relevance));
      expect(ours).toEqual(await databaseRanks(lexemes));
    }
  });

  it("ranks with the filters and ties as the hybrid search's SQL does", async () => {
    const copies = createChunkCopies({
      db: database.db,
      maxBytes: 64 * 1024 * 1024,
      maxVectorValues: Infinity,
      vectorsFirst: true,
    });
    const copied = (await copies.of(await datastoreVersion(), DIMENSIONS))!;
    for (const filters of [
      undefined,
      { datasourceIds: ["file-1"] },
      { customIds: ["even"] },
      { datasourceIds: ["file-0", "file-2"], customIds: ["even"] },
    ]) {
      for (const { question } of QUESTIONS.slice(0, 20)) {
        const lexemes = (await questionLexemes(database.db, question)).filter(isPlainLexeme);
        if (lexemes.length === 0) continue;
        const datasources = filters?.datasourceIds ?? [];
        const customIds = filters?.customIds ?? [];
        const expected = rowsOf<{ id: string }>(
          await database.db.execute(sql`
            select id from knowledge_chunks
            where search @@ to_tsquery('simple', ${anyLexemeQuery(lexemes)})
              and (${datasources.length === 0} or datasource_id = any(${`{${datasources.join(",")}}`}::text[]))
              and (${customIds.length === 0} or custom_id = any(${`{${customIds.join(",")}}`}::text[]))
            order by ts_rank(search, to_tsquery('simple', ${anyLexemeQuery(lexemes)}), 1) desc, id
            limit 30`),
        ).map((row) => row.id);
        expect(copied.rankText(lexemes, filters, 30)).toEqual(expected);
      }
    }
  });

  it("leaves lexemes the simple parser would split to the database", async () => {
    const copies = createChunkCopies({
      db: database.db,
      maxBytes: 64 * 1024 * 1024,
      maxVectorValues: Infinity,
      vectorsFirst: true,
    });
    const copied = (await copies.of(await datastoreVersion(), DIMENSIONS))!;
    const lexemes = await questionLexemes(database.db, "Is two-factor sign-in 1.5 naïve?");
    expect(lexemes.some((lexeme) => !isPlainLexeme(lexeme))).toBe(true);
    expect(copied.rankText(lexemes, undefined, 10)).toBeNull();
    expect(copied.rankText(["email", "address"], undefined, 10)).not.toBeNull();
  });

  it("returns the same hits with and without the copies, in every mode", async () => {
    const search = (exactCacheBytes: number) => searchOver(database, exactCacheBytes);
    const [withCopies, inDatabase] = [search(64 * 1024 * 1024), search(0)];
    for (const mode of ["text", "hybrid"] as const) {
      for (const queryText of [
        ...QUESTIONS.slice(0, 15).map((entry) => entry.question),
        "Is the two-factor sign-in for my wi-fi camera?",
      ]) {
        const request: ChunkSearch = {
          datastores: await datastoreVersion(),
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

  it("leaves tsvectors with weights other than D to the database", async () => {
    const [row] = rowsOf<{ search: Uint8Array }>(
      await database.db.execute(
        sql`select tsvectorsend(setweight(to_tsvector('english', 'weighted words'), 'A')) as search`,
      ),
    );
    const builder = new TextPostingsBuilder();
    builder.add(row!.search);
    expect(builder.build()).toBeNull();
  });
});
