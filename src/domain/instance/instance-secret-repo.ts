import { eq } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { instanceSecrets } from "../../db/schema/index.ts";
import { randomToken } from "../../lib/secrets.ts";

/** Reads a per-installation secret, creating it on first use (safe under concurrent starts). */
export async function loadInstanceSecret(db: Db, name: string): Promise<string> {
  await db
    .insert(instanceSecrets)
    .values({ name, value: randomToken(32) })
    .onConflictDoNothing();
  const [row] = await db.select().from(instanceSecrets).where(eq(instanceSecrets.name, name));
  return row!.value;
}
