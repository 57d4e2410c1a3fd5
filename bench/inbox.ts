import os from "node:os";
import { sql } from "drizzle-orm";
import { pino } from "pino";
import { createRuntime, type Runtime } from "../src/app/runtime.ts";
import { parseConfig } from "../src/config/index.ts";
import type { Database } from "../src/db/client.ts";
import { benchDatabases } from "./lib/databases.ts";
import { formatTable } from "./lib/load.ts";

/**
 * npm run bench -- inbox [conversations] [samples]
 * The operator console's inbox: the first page (limit 50) of GET /api/conversations over
 * `conversations` (default 100,000) conversations of one organization, beside 20,000 of another,
 * through the real route (app.inject: authentication, validation, the query, serialization). A
 * fifth of the conversations have three messages, a tenth a contact. Each case is read `samples`
 * times (default 200; the text searches 20) after 10 warm-up reads, one at a time, first on
 * tables as seeded (no statistics, as on the embedded database, which runs no autovacuum), then
 * after ANALYZE (as autovacuum leaves a server).
 */
const WARM_UP = 10;

type Case = { name: string; query: Record<string, string>; samples?: number };

const percentile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

/**
 * `count` conversations of `organizationId` over its agents: 5% waiting for a person (AI off, a
 * third of them assigned), 40% resolved, the rest open; four channels; created one every 30 s up
 * to now, their last activity up to a day after; every fifth with three messages, every tenth
 * with a contact. All in one statement per table, with generate_series.
 */
async function seed(
  database: Database,
  organizationId: string,
  agentIds: string[],
  assigneeId: string,
  count: number,
) {
  const { db } = database;
  const prefix = organizationId.slice(0, 8);
  const agents = sql.raw(`array[${agentIds.map((id) => `'${id}'`).join(",")}]`);
  await db.execute(sql`
    insert into contacts (id, organization_id, first_name, last_name, email, phone_number)
    select ${prefix} || '-ct-' || n, ${organizationId}, 'Customer', 'Number ' || n,
      'customer' || n || '@example.com', '+1555' || lpad(n::text, 7, '0')
    from generate_series(1, ${count}) n where n % 10 = 0`);
  await db.execute(sql`
    insert into conversations (id, external_id, organization_id, agent_id, visitor_id, channel,
      status, ai_enabled, assignee_id, human_requested_at, contact_id, created_at, updated_at)
    select ${prefix} || '-cv-' || n, 'conversation-' || n, ${organizationId},
      (${agents})[1 + n % ${agentIds.length}], 'visitor-' || n,
      (array['api', 'website', 'whatsapp', 'telegram'])[1 + (n / 7) % 4],
      case when n % 20 = 0 then 'HUMAN_REQUESTED' when n % 5 < 2 then 'RESOLVED'
        else 'UNRESOLVED' end,
      n % 20 <> 0,
      case when n % 60 = 0 then ${assigneeId} end,
      case when n % 20 = 0 then now() end,
      case when n % 10 = 0 then ${prefix} || '-ct-' || n end,
      now() - ((${count} - n) * interval '30 seconds'),
      now() - ((${count} - n) * interval '30 seconds') + ((n * 7919) % 86400) * interval '1 second'
    from generate_series(1, ${count}) n`);
  await db.execute(sql`
    insert into messages (id, organization_id, conversation_id, agent_id, "from", text, created_at)
    select ${prefix} || '-m-' || n || '-' || k, ${organizationId}, ${prefix} || '-cv-' || n,
      (${agents})[1 + n % ${agentIds.length}],
      case when k = 2 then 'agent' else 'human' end,
      case when k = 1 and n % 1000 = 0 then 'My parcel is lost, order ' || n
        when k = 1 then 'Hello, I need help with order ' || n
        when k = 2 then 'Of course! Could you tell me more about order ' || n || '?'
        else 'It has not arrived yet.' end,
      now() - ((${count} - n) * interval '30 seconds') + k * interval '1 second'
    from generate_series(1, ${count}) n, generate_series(1, 3) k where n % 5 = 0`);
}

async function start(database: Database) {
  const runtime = await createRuntime({
    config: parseConfig({ LOG_LEVEL: "silent", BOOTSTRAP_DEFAULT_ORG: "false" }),
    logger: pino({ level: "silent" }),
    role: "api",
    database,
  });
  await runtime.api!.ready();
  return runtime;
}

/** An organization with three agents, seeded with `count` conversations. */
async function organization(runtime: Runtime, database: Database, name: string, count: number) {
  const created = await runtime.services.organizations.createOrganization({
    name,
    ownerEmail: `owner-${name.toLowerCase()}@example.com`,
  });
  const authorization = `Bearer ${created.apiKey}`;
  const agentIds: string[] = [];
  for (const agent of ["Support", "Sales", "Billing"]) {
    const response = await runtime.api!.inject({
      method: "POST",
      url: "/api/agents",
      headers: { authorization },
      payload: { name: agent, modelName: "gpt_4o_mini" },
    });
    if (response.statusCode !== 201) throw new Error(`POST /api/agents: ${response.body}`);
    agentIds.push(response.json().id);
  }
  await seed(database, created.organization.id, agentIds, created.user.id, count);
  return { authorization, agentIds, userId: created.user.id };
}

async function measure(runtime: Runtime, authorization: string, entry: Case) {
  const url = `/api/conversations?${new URLSearchParams({ limit: "50", ...entry.query })}`;
  const read = async () => {
    const response = await runtime.api!.inject({ method: "GET", url, headers: { authorization } });
    if (response.statusCode !== 200) throw new Error(`GET ${url}: ${response.body}`);
    return response.json() as { data: unknown[]; nextCursor: string | null };
  };
  let rows = 0;
  for (let index = 0; index < WARM_UP; index += 1) rows = (await read()).data.length;
  const samples: number[] = [];
  for (let index = 0; index < (entry.samples ?? 200); index += 1) {
    const started = performance.now();
    await read();
    samples.push(performance.now() - started);
  }
  samples.sort((a, b) => a - b);
  return { rows, p50: percentile(samples, 0.5), p95: percentile(samples, 0.95) };
}

const loadAverage = () =>
  os
    .loadavg()
    .map((load) => load.toFixed(2))
    .join(", ");

export async function run(args: string[]): Promise<void> {
  const count = Number(args[0] ?? 100_000);
  const samples = Number(args[1] ?? 200);
  const table: Array<Record<string, string>> = [];
  for await (const { label, database, dispose } of benchDatabases()) {
    const runtime = await start(database);
    const seeding = performance.now();
    const ours = await organization(runtime, database, "Inbox", count);
    await organization(runtime, database, "Neighbour", 20_000);
    process.stdout.write(
      `${label}: seeded ${count} + 20000 conversations in ${((performance.now() - seeding) / 1000).toFixed(1)} s\n`,
    );
    const second = await runtime.api!.inject({
      url: "/api/conversations?limit=50&sort=lastActivity",
      headers: { authorization: ours.authorization },
    });
    const cases: Case[] = [
      { name: "lastActivity", query: { sort: "lastActivity" } },
      {
        name: "lastActivity, status=HUMAN_REQUESTED",
        query: { sort: "lastActivity", status: "HUMAN_REQUESTED" },
      },
      {
        name: "lastActivity, page 2 (cursor)",
        query: { sort: "lastActivity", cursor: second.json().nextCursor },
      },
      {
        name: "lastActivity, aiEnabled=false",
        query: { sort: "lastActivity", aiEnabled: "false" },
      },
      {
        name: "lastActivity, assigneeId=none",
        query: { sort: "lastActivity", assigneeId: "none" },
      },
      {
        name: "lastActivity, assigneeId=<member> (1.7%)",
        query: { sort: "lastActivity", assigneeId: ours.userId },
      },
      {
        name: "lastActivity, agentId",
        query: { sort: "lastActivity", agentId: ours.agentIds[0]! },
      },
      {
        name: "lastActivity, channel=whatsapp",
        query: { sort: "lastActivity", channel: "whatsapp" },
      },
      { name: "createdAt (default)", query: {} },
      { name: "createdAt, status=HUMAN_REQUESTED", query: { status: "HUMAN_REQUESTED" } },
      {
        name: "lastActivity, q=parcel (0.1%)",
        query: { sort: "lastActivity", q: "parcel" },
        samples: 20,
      },
      {
        name: "lastActivity, q=order (20%)",
        query: { sort: "lastActivity", q: "order" },
        samples: 20,
      },
      {
        name: "lastActivity, q=customer9 (contacts)",
        query: { sort: "lastActivity", q: "customer9" },
        samples: 20,
      },
    ];
    for (const statistics of ["none", "analyzed"]) {
      if (statistics === "analyzed") await database.db.execute(sql`analyze`);
      const load = loadAverage();
      for (const entry of cases) {
        const scaled = { ...entry, samples: Math.min(entry.samples ?? samples, samples) };
        const result = await measure(runtime, ours.authorization, scaled);
        table.push({
          database: label,
          statistics,
          case: entry.name,
          rows: String(result.rows),
          "p50 ms": result.p50.toFixed(2),
          "p95 ms": result.p95.toFixed(2),
          load,
        });
      }
    }
    await runtime.close();
    await dispose();
  }
  process.stdout.write(
    `GET /api/conversations, first page of 50 (app.inject), ${count} conversations of the organization\n`,
  );
  process.stdout.write(`${formatTable(table)}\n`);
  process.exit(0);
}
