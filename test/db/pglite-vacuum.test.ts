import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type Database, type Db, rowsOf } from "../../src/db/client.ts";
import { startPgliteVacuum } from "../../src/db/pglite-vacuum.ts";
import { newId } from "../../src/lib/ids.ts";
import { createTestDatabase } from "../harness/database.ts";

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

const silent = { warn: () => {} };

/** Pages of the reservations table and its indexes. */
async function storedBytes(db: Db): Promise<number> {
  const [row] = rowsOf<{ bytes: string }>(
    await db.execute(sql`select pg_total_relation_size('credit_reservations')::text as bytes`),
  );
  return Number(row?.bytes);
}

/** What `count` agent queries leave, `inFlight` at a time: reservations made, then settled. */
async function settle(db: Db, organizationId: string, count: number, inFlight = 16) {
  for (let done = 0; done < count; done += inFlight) {
    await db.execute(sql`
      insert into credit_reservations (id, organization_id, amount_micro, agent_message, expires_at)
      select ${newId()} || '-' || n, ${organizationId}, 1000, true, now() + interval '2 minutes'
      from generate_series(1, ${inFlight}) n`);
    await db.execute(
      sql`delete from credit_reservations where organization_id = ${organizationId}`,
    );
  }
}

describe("vacuuming the credit reservations of the embedded database", () => {
  it("keeps the table at the size of one interval's reservations", async () => {
    const { db } = database;
    const organizationId = newId();
    await db.execute(sql`insert into organizations (id, name) values (${organizationId}, 'Busy')`);
    const vacuum = startPgliteVacuum(db, silent);
    // Four intervals of 500 settled reservations each, with and then without the vacuum.
    const sizes = async (vacuuming: boolean) => {
      const grown: number[] = [];
      for (let interval = 0; interval < 4; interval += 1) {
        await settle(db, organizationId, 500);
        if (vacuuming) await vacuum.vacuum();
        grown.push(await storedBytes(db));
      }
      return grown;
    };
    await vacuum.vacuum();
    const vacuumed = await sizes(true);
    const unvacuumed = await sizes(false);
    await vacuum.stop();
    // With it the table stops growing once the pages the first vacuum freed are recycled (B-tree
    // pages one vacuum later), give or take a page of the primary key; without, every interval
    // adds about 57 KB.
    expect(vacuumed.at(-1)! - vacuumed[1]!).toBeLessThanOrEqual(16_384);
    expect(unvacuumed.at(-1)! - unvacuumed[0]!).toBeGreaterThan(100_000);
  });

  it("runs on its interval, and a failure is logged, not thrown", async () => {
    const execute = vi.fn(() => Promise.reject(new Error("database closed")));
    const warn = vi.fn();
    const vacuum = startPgliteVacuum({ execute } as unknown as Db, { warn }, 10);
    await expect.poll(() => execute.mock.calls.length).toBeGreaterThanOrEqual(2);
    await vacuum.stop();
    expect(warn).toHaveBeenCalledWith(
      { err: expect.objectContaining({ message: "database closed" }) },
      "Could not vacuum the credit reservations",
    );
  });
});
