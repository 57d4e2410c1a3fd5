import type { AddressInfo } from "node:net";
import { sql } from "drizzle-orm";
import { pino } from "pino";
import { createRuntime } from "../src/app/runtime.ts";
import { createIdentityServices } from "../src/app/services.ts";
import { parseConfig } from "../src/config/index.ts";
import type { Database } from "../src/db/client.ts";
import { creditBuckets } from "../src/db/schema/index.ts";
import type { BillingService } from "../src/domain/billing/billing-service.ts";
import type { ConsumptionService } from "../src/domain/billing/consumption-service.ts";
import { newId } from "../src/lib/ids.ts";
import { isoInstant } from "../src/lib/iso-instant.ts";
import { loadLedger } from "./lib/billing-data.ts";
import { benchDatabases } from "./lib/databases.ts";
import { formatTable, runLoad } from "./lib/load.ts";

/**
 * npm run bench -- billing [events] [--postgres-only]
 * Summary latency over `events` (default 1,000,000) ledger events of one organization spread
 * over a year, for each groupBy, and charges per second under concurrency.
 */
const SUMMARY_RUNS = 7;
const GROUPS = ["agent", "feature", "provider", "model", "day", "week", "month"] as const;

async function time<T>(work: () => Promise<T>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

function stats(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    median: sorted[Math.floor(sorted.length / 2)]!,
    max: sorted.at(-1)!,
  };
}

async function measureSummaries(
  label: string,
  consumption: ConsumptionService,
  organizationId: string,
  agentId: string,
) {
  // Whole year with partial first and last days, so both the day totals and raw edges are read.
  // Parsed as the route parses its query string.
  const range = (startDate: string, endDate: string) => ({
    startDate: isoInstant.parse(startDate),
    endDate: isoInstant.parse(endDate),
  });
  const year = range("2025-01-01T07:13:00Z", "2025-12-31T16:40:00Z");
  const month = range("2025-06-03T09:00:00Z", "2025-07-02T18:00:00Z");
  const cases = [
    ...GROUPS.map((groupBy) => ({ name: `year, groupBy=${groupBy}`, query: { ...year, groupBy } })),
    { name: "30 days, groupBy=day", query: { ...month, groupBy: "day" as const } },
    {
      name: "year, groupBy=model, agentId+feature",
      query: { ...year, groupBy: "model" as const, agentId, feature: "chat" },
    },
  ];
  const rows = [];
  for (const { name, query } of cases) {
    await consumption.summary(organizationId, query);
    const samples = [];
    for (let run = 0; run < SUMMARY_RUNS; run += 1) {
      samples.push(await time(() => consumption.summary(organizationId, query)));
    }
    const { median, max } = stats(samples);
    rows.push({
      database: label,
      query: name,
      "median ms": median.toFixed(1),
      "max ms": max.toFixed(1),
    });
  }
  for (const orderBy of ["occurredAt_desc", "creditsCharged_desc"] as const) {
    const listSamples = [];
    for (let run = 0; run < SUMMARY_RUNS; run += 1) {
      listSamples.push(
        await time(() => consumption.list(organizationId, { page: 1, limit: 50, orderBy })),
      );
    }
    const list = stats(listSamples);
    rows.push({
      database: label,
      query: `list page 1 of 50, ${orderBy}, with total`,
      "median ms": list.median.toFixed(1),
      "max ms": list.max.toFixed(1),
    });
  }
  return rows;
}

/** The same aggregate straight over the events, to show what the day totals save. */
async function measureRawAggregate(label: string, database: Database, organizationId: string) {
  const query = () =>
    database.db.execute(sql`
      select agent_id, sum(credits_charged_micro), sum(input_tokens), sum(output_tokens), count(*)
      from consumption_events
      where organization_id = ${organizationId}
        and occurred_at >= '2025-01-01T07:13:00Z' and occurred_at < '2025-12-31T16:40:00.001Z'
      group by agent_id`);
  await query();
  const samples = [];
  for (let run = 0; run < 3; run += 1) samples.push(await time(query));
  return {
    database: label,
    query: "baseline: raw events, groupBy=agent (not used)",
    "median ms": stats(samples).median.toFixed(1),
    "max ms": stats(samples).max.toFixed(1),
  };
}

async function measureServiceCharges(
  label: string,
  billing: BillingService,
  organizationIds: string[],
  perWorker: number,
) {
  const started = performance.now();
  await Promise.all(
    organizationIds.map(async (organizationId, worker) => {
      for (let index = 0; index < perWorker; index += 1) {
        await billing.charge({
          organizationId,
          feature: "chat",
          provider: "openai",
          modelName: "gpt-4o-mini",
          inputTokens: 1_000 + worker,
          outputTokens: 200,
        });
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const distinct = new Set(organizationIds).size;
  return {
    database: label,
    path: `Billing.charge, ${organizationIds.length} concurrent, ${distinct} org(s)`,
    "charges/s": ((organizationIds.length * perWorker) / seconds).toFixed(0),
    "p50 ms": "",
    "p99 ms": "",
  };
}

async function measureHttpCharges(label: string, baseUrl: string, apiKey: string) {
  const result = await runLoad({
    url: `${baseUrl}/api/usage/increment-agent-queries`,
    method: "POST",
    headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
    bodyTemplate: JSON.stringify({
      provider: "azure",
      modelName: "gpt-4o-mini",
      inputTokens: 1000,
      outputTokens: 200,
    }),
    connections: 32,
    durationMs: 6_000,
  });
  return {
    database: label,
    path: `POST increment-agent-queries, 32 connections, 1 org (non-200: ${result.requests - (result.statuses["200"] ?? 0) + result.errors})`,
    "charges/s": result.perSecond.toFixed(0),
    "p50 ms": result.p50Ms.toFixed(2),
    "p99 ms": result.p99Ms.toFixed(2),
  };
}

export async function run(args: string[]): Promise<void> {
  const events = Number(args.find((arg) => /^\d+$/.test(arg)) ?? 1_000_000);
  const postgresOnly = args.includes("--postgres-only");
  const summaryRows = [];
  const chargeRows = [];
  const notes: string[] = [];
  for await (const { label, database, dispose } of benchDatabases()) {
    if (postgresOnly && database.kind !== "postgres") {
      await dispose();
      continue;
    }
    const runtime = await createRuntime({
      config: parseConfig({ LOG_LEVEL: "silent", BOOTSTRAP_DEFAULT_ORG: "false" }),
      logger: pino({ level: "silent" }),
      role: "api",
      database,
    });
    const { organizations } = createIdentityServices(
      database.db,
      pino({ level: "silent" }),
      parseConfig({}).accounts,
    );
    const organization = await organizations.createOrganization({ name: "Bench ledger" });
    const organizationId = organization.organization.id;
    const loaded = await loadLedger(database, organizationId, events);
    notes.push(
      `${label}: ${events.toLocaleString("en")} events loaded in ${loaded.seconds.toFixed(0)} s; ${loaded.dayTotals} day-total rows`,
    );
    const { consumption, billing } = runtime.services;
    summaryRows.push(
      ...(await measureSummaries(label, consumption, organizationId, loaded.agentIds[0]!)),
      await measureRawAggregate(label, database, organizationId),
    );

    const payers = [];
    for (let index = 0; index < 16; index += 1) {
      const created = await organizations.createOrganization({ name: `Payer ${index}` });
      await database.db.insert(creditBuckets).values({
        id: newId(),
        organizationId: created.organization.id,
        grantedMicro: 1e15,
        remainingMicro: 1e15,
      });
      payers.push(created);
    }
    const ids = payers.map((payer) => payer.organization.id);
    chargeRows.push(
      await measureServiceCharges(label, billing, Array(16).fill(ids[0]), 100),
      await measureServiceCharges(label, billing, ids, 100),
    );
    await runtime.api!.listen({ host: "127.0.0.1", port: 0 });
    const { port } = runtime.api!.server.address() as AddressInfo;
    chargeRows.push(await measureHttpCharges(label, `http://127.0.0.1:${port}`, payers[1]!.apiKey));
    await runtime.close();
    await dispose();
  }
  process.stdout.write(
    `${notes.join("\n")}\n\nSummary latency (${SUMMARY_RUNS} runs after a warm-up)\n`,
  );
  process.stdout.write(`${formatTable(summaryRows)}\n\nCharges under concurrency\n`);
  process.stdout.write(`${formatTable(chargeRows)}\n`);
  process.exit(0);
}
