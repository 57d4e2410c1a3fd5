import { sql } from "drizzle-orm";
import { describe, expect } from "vitest";
import { type Database, rowsOf } from "../../src/db/client.ts";
import type { JobHandlers } from "../../src/jobs/job-catalog.ts";
import { jobTest } from "../harness/fixtures.ts";
import { eventually } from "./webhook-helpers.ts";

const test = jobTest();

async function states(database: Database) {
  const result = await database.db.execute(
    sql`select data->>'deliveryId' as "deliveryId", state from pgboss.job where name = 'webhook.deliver'`,
  );
  return Object.fromEntries(
    rowsOf<{ deliveryId: string; state: string }>(result).map((row) => [row.deliveryId, row.state]),
  );
}

describe("webhook jobs run in batches", () => {
  test("runs a batch side by side and retries only the job that failed", async ({
    database,
    jobs,
  }) => {
    const ids = ["a", "b", "c", "failing", "d", "e", "f", "g"];
    for (const deliveryId of ids) {
      await jobs.send("webhook.deliver", { organizationId: "org", deliveryId, attempt: 1 });
    }
    let running = 0;
    let mostAtOnce = 0;
    const handlers = {
      "webhook.deliver": async ({ deliveryId }: { deliveryId: string }) => {
        running += 1;
        mostAtOnce = Math.max(mostAtOnce, running);
        await new Promise((resolve) => setTimeout(resolve, 100));
        running -= 1;
        if (deliveryId === "failing") throw new Error("receiver down");
      },
    };
    const ignore = async () => {};
    await jobs.work(
      new Proxy(handlers, {
        get: (target, name) => target[name as keyof typeof target] ?? ignore,
      }) as unknown as JobHandlers,
    );

    const settled = await eventually(async () => {
      const current = await states(database);
      expect(Object.keys(current)).toHaveLength(ids.length);
      expect(
        Object.values(current).every((state) => state !== "created" && state !== "active"),
      ).toBe(true);
      return current;
    });
    expect(settled).toEqual({
      a: "completed",
      b: "completed",
      c: "completed",
      d: "completed",
      e: "completed",
      f: "completed",
      g: "completed",
      failing: "retry",
    });
    expect(mostAtOnce).toBeGreaterThan(1);
  });
});
