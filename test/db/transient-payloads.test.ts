import { sql } from "drizzle-orm";
import { afterAll, describe, expect, test } from "vitest";
import { rowsOf } from "../../src/db/client.ts";
import { createTestDatabase } from "../harness/database.ts";

const database = await createTestDatabase();
afterAll(() => database.close());

describe("values kept only for a while", () => {
  // An inbound event's payload lives until its turn records the message, a live event's data
  // until the backlog is pruned: compressing them cost the embedded database's one thread about
  // 0.4 ms for each 20 KB mail (migration 0046).
  test("are stored out of line without compression", async () => {
    const columns = rowsOf<{ column: string; storage: string }>(
      await database.db.execute(sql`
        select attrelid::regclass::text || '.' || attname as column, attstorage as storage
        from pg_attribute
        where (attrelid = 'channel_events'::regclass and attname = 'payload')
          or (attrelid = 'live_events'::regclass and attname = 'data')
        order by 1`),
    );
    expect(columns).toEqual([
      { column: "channel_events.payload", storage: "e" },
      { column: "live_events.data", storage: "e" },
    ]);
  });
});
