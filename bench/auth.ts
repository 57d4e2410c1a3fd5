import { pino } from "pino";
import { createRuntime, type Runtime } from "../src/app/runtime.ts";
import { parseConfig } from "../src/config/index.ts";
import type { Database } from "../src/db/client.ts";
import { memberships, users } from "../src/db/schema/index.ts";
import { hashPassword } from "../src/domain/accounts/passwords.ts";
import { newId } from "../src/lib/ids.ts";
import { benchDatabases } from "./lib/databases.ts";
import { formatTable } from "./lib/load.ts";

/**
 * npm run bench -- auth [requests]
 * p50 of one GET /api/me through app.inject (no socket), `requests` (default 5,000) per round
 * after a warm-up, four rounds with the cases alternating: a signed-in session (its cache warm)
 * against a full-access key, and a key with a rate limit (in memory, and in Redis when
 * BENCH_REDIS_URL or TEST_REDIS_URL is set) against the same key kinds without one.
 */
const ROUNDS = 4;
const WARM_UP = 500;
const PASSWORD = "correct horse battery";

type Case = { name: string; runtime: Runtime; headers: () => Promise<Record<string, string>> };

async function p50(runtime: Runtime, headers: Record<string, string>, requests: number) {
  const api = runtime.api!;
  const samples: number[] = [];
  for (let index = 0; index < WARM_UP + requests; index += 1) {
    const started = performance.now();
    const response = await api.inject({ method: "GET", url: "/api/me", headers });
    const elapsed = performance.now() - started;
    if (response.statusCode !== 200) throw new Error(`GET /api/me: ${response.body}`);
    if (index >= WARM_UP) samples.push(elapsed);
  }
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)]!;
}

async function start(database: Database, env: Record<string, string>) {
  return createRuntime({
    config: parseConfig({ LOG_LEVEL: "silent", BOOTSTRAP_DEFAULT_ORG: "false", ...env }),
    logger: pino({ level: "silent" }),
    role: "api",
    database,
  });
}

/** An organization with its full-access key and a signed-in owner's cookie. */
async function seed(runtime: Runtime, database: Database) {
  const created = await runtime.services.organizations.createOrganization({ name: "Bench" });
  const userId = newId();
  const email = `owner-${userId.toLowerCase()}@example.com`;
  await database.db
    .insert(users)
    .values({ id: userId, email, name: "Owner", passwordHash: await hashPassword(PASSWORD) });
  await database.db
    .insert(memberships)
    .values({ organizationId: created.organization.id, userId, role: "owner" });
  const login = await runtime.api!.inject({
    method: "POST",
    url: "/api/auth/login",
    payload: { email, password: PASSWORD },
  });
  const cookie = String(login.headers["set-cookie"]).split(";")[0]!;
  return { apiKey: created.apiKey, cookie };
}

/** A new key with the highest limit, so no round is refused. */
async function limitedKey(runtime: Runtime, cookie: string) {
  const created = await runtime.api!.inject({
    method: "POST",
    url: "/api/api-keys",
    headers: { cookie, origin: parseConfig({}).accounts.publicOrigin },
    payload: { name: "limited", rateLimitPerMinute: 100_000 },
  });
  if (created.statusCode !== 201) throw new Error(`create key: ${created.body}`);
  return { authorization: `Bearer ${created.json().key}` };
}

export async function run(args: string[]): Promise<void> {
  const requests = Number(args.find((arg) => /^\d+$/.test(arg)) ?? 5_000);
  const redisUrl = process.env.BENCH_REDIS_URL ?? process.env.TEST_REDIS_URL;
  const rows: Array<Record<string, string | number>> = [];
  for await (const { label, database, dispose } of benchDatabases()) {
    const runtime = await start(database, {});
    const withRedis = redisUrl ? await start(database, { REDIS_URL: redisUrl }) : null;
    const { apiKey, cookie } = await seed(runtime, database);
    const key = { authorization: `Bearer ${apiKey}` };
    const cases: Case[] = [
      { name: "session (cached)", runtime, headers: async () => ({ cookie }) },
      { name: "key", runtime, headers: async () => key },
      { name: "key, rate limit in memory", runtime, headers: () => limitedKey(runtime, cookie) },
    ];
    if (withRedis) {
      cases.push(
        { name: "key (Redis process)", runtime: withRedis, headers: async () => key },
        {
          name: "key, rate limit in Redis",
          runtime: withRedis,
          headers: () => limitedKey(withRedis, cookie),
        },
      );
    }
    const medians = new Map<string, number[]>(cases.map((one) => [one.name, []]));
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const one of cases) {
        medians.get(one.name)!.push(await p50(one.runtime, await one.headers(), requests));
      }
    }
    for (const [name, values] of medians) {
      const sorted = [...values].sort((a, b) => a - b);
      rows.push({
        database: label,
        case: name,
        "p50 ms (median of rounds)": sorted[Math.floor(sorted.length / 2)]!.toFixed(3),
        "p50 ms per round": values.map((value) => value.toFixed(3)).join(" "),
      });
    }
    await withRedis?.close();
    await runtime.close();
    await dispose();
  }
  process.stdout.write(`${formatTable(rows)}\n`);
}
