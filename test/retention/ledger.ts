import { sql } from "drizzle-orm";
import { type Db, rowsOf } from "../../src/db/client.ts";

export type LedgerEvent = {
  id: string;
  conversation_id: string | null;
  message_id: string | null;
  metadata: Record<string, unknown>;
};

/** An organization's consumption events as the table holds them, by id. */
export async function ledgerOf(db: Db, organizationId: string): Promise<LedgerEvent[]> {
  return rowsOf<LedgerEvent>(
    await db.execute(
      sql`select id, conversation_id, message_id, metadata from consumption_events
          where organization_id = ${organizationId} order by id`,
    ),
  );
}
