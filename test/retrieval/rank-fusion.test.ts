import { describe, expect } from "vitest";
import { type Database, rowsOf } from "../../src/db/client.ts";
import { fusedRanks, fuseRankings, rankedIds } from "../../src/retrieval/hybrid-search.ts";
import { databaseTest } from "../harness/fixtures.ts";

// Hybrid search fuses in the application when both rankings come from chunk copies, and in SQL
// otherwise: both must give the same order and the same values, ties included.

const test = databaseTest();

async function fusedInSql(database: Database, vector: string[], text: string[], topK: number) {
  const rows = rowsOf<{ id: string; rrf: number | string }>(
    await database.db.execute(fusedRanks(rankedIds(vector), rankedIds(text), topK)),
  );
  return rows.map((row) => ({ id: row.id, rrf: Number(row.rrf) }));
}

/** A ranking of `size` ids drawn from a pool, deterministic for a seed. */
function ranking(seed: number, size: number, pool: string[]): string[] {
  const picked = [...pool];
  let state = seed;
  for (let index = picked.length - 1; index > 0; index -= 1) {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    const other = state % (index + 1);
    [picked[index], picked[other]] = [picked[other]!, picked[index]!];
  }
  return picked.slice(0, size);
}

describe("reciprocal rank fusion", () => {
  test("gives the statement's order and values, to the bit", async ({ database }) => {
    const pool = Array.from({ length: 300 }, (_, index) => `c${(index * 7919) % 1000}x${index}`);
    for (let seed = 1; seed <= 5; seed += 1) {
      const vector = ranking(seed, 200, pool);
      const text = ranking(seed + 100, 150, pool);
      for (const topK of [1, 6, 50, 400]) {
        expect(fuseRankings([vector, text], topK)).toEqual(
          await fusedInSql(database, vector, text, topK),
        );
      }
      expect(fuseRankings([vector, []], 10)).toEqual(await fusedInSql(database, vector, [], 10));
      expect(fuseRankings([[], text], 10)).toEqual(await fusedInSql(database, [], text, 10));
    }
  });

  test("breaks exact ties by id in byte order, as the statement does", async ({ database }) => {
    // With the vector list's constant 60 and the text list's 20, vector rank 10 + text rank 45
    // (1/70 + 1/65) ties with vector rank 5 + text rank 50 (1/65 + 1/70).
    const filler = (prefix: string, count: number) =>
      Array.from({ length: count }, (_, index) => `${prefix}${String(index).padStart(3, "0")}`);
    const vector = [...filler("v", 4), "a-tie", ...filler("w", 4), "Z_tie"];
    const text = [...filler("t", 44), "Z_tie", ...filler("u", 4), "a-tie"];
    expect(vector.indexOf("Z_tie") + 1).toBe(10);
    expect(vector.indexOf("a-tie") + 1).toBe(5);
    expect(text.indexOf("Z_tie") + 1).toBe(45);
    expect(text.indexOf("a-tie") + 1).toBe(50);

    const fused = fuseRankings([vector, text], 100);
    expect(fused).toEqual(await fusedInSql(database, vector, text, 100));
    const tied = fused.filter((hit) => hit.id.endsWith("tie"));
    // Equal in double precision too, so the id decides: "Z" (0x5a) before "a" (0x61) in bytes,
    // the other way round in a linguistic collation.
    expect(tied[0]!.rrf).toBe(tied[1]!.rrf);
    expect(tied.map((hit) => hit.id)).toEqual(["Z_tie", "a-tie"]);
  });
});
