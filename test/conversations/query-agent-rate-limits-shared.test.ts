import { execFileSync } from "node:child_process";
import { randomInt, randomUUID } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test as base, describe, expect, inject } from "vitest";
import { createTestDatabase, testDatabaseKind } from "../harness/database.ts";
import { type ServiceProcess, startServiceProcess } from "../harness/service-process.ts";

// Two `agentdesk serve` processes sharing one Redis, as two API instances behind a load
// balancer: query-agent's limits without a key must hold across them. On PostgreSQL they share a
// database too; on PGlite each has its own DATA_DIR (one process per embedded database), so
// only the limits that do not name an agent can be shared there.
const redisUrl = process.env.TEST_REDIS_URL;
const START_TIMEOUT_MS = 120_000;

/** A documentation-range address per test, sent as the proxy would: counters never collide. */
const randomIp = () => `198.18.${randomInt(0, 255)}.${randomInt(1, 254)}`;

/** A fresh embedded database from the run's migrated snapshot (as test/cli does). */
function snapshotDataDir(): string {
  const dataDir = mkdtempSync(join(tmpdir(), "agentdesk-limits-"));
  mkdirSync(join(dataDir, "pglite"));
  execFileSync("tar", ["-xf", inject("pgliteSnapshot"), "-C", join(dataDir, "pglite")], {
    stdio: "ignore",
  });
  return dataDir;
}

const test = base
  .extend(
    "env",
    { scope: "file" },
    {
      REDIS_URL: redisUrl!,
      // The client address is the X-Forwarded-For the test sends, as behind a load balancer.
      TRUST_PROXY: "1",
      QUERY_ANONYMOUS_RATE_LIMIT_PER_MINUTE: "3",
      QUERY_ANONYMOUS_IP_RATE_LIMIT_PER_MINUTE: "4",
      QUERY_ANONYMOUS_CONVERSATIONS_PER_AGENT_PER_HOUR: "4",
    },
  )
  // The environment of one more process: `env`, and the database or data directory it uses.
  .extend("processEnv", { scope: "file" }, async ({ env }, { onCleanup }) => {
    const dataDirs: string[] = [];
    const database = testDatabaseKind === "postgres" ? await createTestDatabase() : null;
    onCleanup(async () => {
      await database?.close();
      for (const dataDir of dataDirs) rmSync(dataDir, { recursive: true, force: true });
    });
    return (): Record<string, string> => {
      if (database) return { ...env, DATABASE_URL: database.connectionString! };
      const dataDir = snapshotDataDir();
      dataDirs.push(dataDir);
      return { ...env, DATA_DIR: dataDir };
    };
  })
  .extend("first", { scope: "file" }, async ({ processEnv }, { onCleanup }) => {
    const service = await startServiceProcess(processEnv());
    onCleanup(() => service.stop());
    return service;
  })
  .extend("second", { scope: "file" }, async ({ processEnv, first }, { onCleanup }) => {
    // One after the other: two first starts at once on one PostgreSQL database can deadlock.
    void first;
    const service = await startServiceProcess(processEnv());
    onCleanup(() => service.stop());
    return service;
  });

describe.skipIf(!redisUrl)("query-agent without a key, across two service processes", () => {
  // Both processes start before the first test, within the time a start may take.
  test.beforeAll(async ({ second }) => {
    void second;
  }, START_TIMEOUT_MS);

  /** A public agent of a new organization, created through `service`. */
  async function publicAgent(service: ServiceProcess): Promise<string> {
    const org = await service.createOrganization("Widget owner");
    const created = await service.request<{ id: string }>("POST", "/api/agents", {
      auth: org,
      json: { name: "Widget", modelName: "gpt_4o_mini", visibility: "public" },
    });
    expect(created.status).toBe(201);
    return created.body.id;
  }

  /** Sends `count` anonymous messages, alternating between the processes; their statuses. */
  async function alternate(
    { first, second }: { first: ServiceProcess; second: ServiceProcess },
    count: number,
    agentIdOn: (service: ServiceProcess) => string,
    request: (index: number) => { ip: string; visitorId: string },
  ): Promise<number[]> {
    const statuses: number[] = [];
    for (let index = 0; index < count; index += 1) {
      const service = index % 2 ? second : first;
      const { ip, visitorId } = request(index);
      const response = await service.request<{ type?: string }>(
        "POST",
        `/api/agents/${agentIdOn(service)}/query-agent`,
        { json: { query: "Hello!", visitorId }, headers: { "x-forwarded-for": ip } },
      );
      if (response.status === 429) expect(response.body.type).toBe("RATE_LIMITED");
      statuses.push(response.status);
    }
    return statuses;
  }

  test("counts one visitor's messages together", async ({ first, second }) => {
    const agents = new Map([
      [first, await publicAgent(first)],
      [second, await publicAgent(second)],
    ]);
    const visitorId = `visitor-${randomUUID()}`;
    const statuses = await alternate(
      { first, second },
      5,
      (service) => agents.get(service)!,
      () => ({ ip: randomIp(), visitorId }),
    );
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
  });

  test("counts one address's messages together", async ({ first, second }) => {
    const agents = new Map([
      [first, await publicAgent(first)],
      [second, await publicAgent(second)],
    ]);
    const ip = randomIp();
    const statuses = await alternate(
      { first, second },
      6,
      (service) => agents.get(service)!,
      () => ({ ip, visitorId: `visitor-${randomUUID()}` }),
    );
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
  });

  test.skipIf(testDatabaseKind !== "postgres")(
    "counts one agent's new conversations together (a database both processes share)",
    async ({ first, second }) => {
      const agentId = await publicAgent(first);
      const statuses = await alternate(
        { first, second },
        6,
        () => agentId,
        () => ({ ip: randomIp(), visitorId: `visitor-${randomUUID()}` }),
      );
      expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
    },
  );
});
