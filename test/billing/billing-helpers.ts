import { eq } from "drizzle-orm";
import { agents, creditBuckets } from "../../src/db/schema/index.ts";
import { createConsumptionEventRepo } from "../../src/domain/billing/consumption-event-repo.ts";
import { newId } from "../../src/lib/ids.ts";
import type { TestApp, TestOrganization } from "../harness/app.ts";

export async function grantCredits(
  app: TestApp,
  organizationId: string,
  amount: number,
  expiresAt?: string,
): Promise<string> {
  const reply = await app.admin.admin.grantCredits(organizationId, {
    amount,
    ...(expiresAt ? { expiresAt } : {}),
  });
  if (reply.status !== 201) throw new Error(`grant: ${reply.text}`);
  return reply.body.creditBucket.id;
}

export async function setBilling(
  app: TestApp,
  organizationId: string,
  settings: Record<string, unknown>,
): Promise<void> {
  const reply = await app.admin.admin.updateBilling(organizationId, settings);
  if (reply.status !== 200) throw new Error(`billing: ${reply.text}`);
}

export function increment(
  app: TestApp,
  organization: TestOrganization,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
) {
  return app.client(organization.auth).usage.increment(body, headers);
}

export async function balanceOf(app: TestApp, organization: TestOrganization) {
  const reply = await app.client(organization.auth).credits.balance();
  if (reply.status !== 200) throw new Error(`balance: ${reply.text}`);
  return reply.body as {
    billingModel: string;
    credits: { total: number; used: number; remaining: number } | null;
    canRun: boolean;
    blockReason: string | null;
    freePlan: { included: number; used: number; remaining: number } | null;
  };
}

/** The agents API belongs to another module; the ledger only needs rows to point at. */
export async function insertAgent(app: TestApp, organizationId: string, name: string) {
  const id = newId();
  await app.database.db
    .insert(agents)
    .values({ id, organizationId, name, modelName: "gpt_4o_mini" });
  return id;
}

export async function bucketsOf(app: TestApp, organizationId: string) {
  return app.database.db
    .select()
    .from(creditBuckets)
    .where(eq(creditBuckets.organizationId, organizationId));
}

/** gpt-4o-mini on azure: 0.15 credits per million input tokens, 0.60 per million output. */
export const MINI = { provider: "azure", modelName: "gpt-4o-mini" } as const;

export type SeedEvent = {
  organizationId: string;
  occurredAt: Date;
  agentId?: string | null;
  feature?: string;
  provider?: string;
  modelName?: string;
  inputTokens?: number;
  outputTokens?: number;
  creditsChargedMicro?: number;
  conversationId?: string | null;
};

/** Writes events with explicit occurredAt through the ledger's repository (day totals included). */
export async function seedEvents(app: TestApp, events: SeedEvent[]): Promise<string[]> {
  const rows = events.map((event) => {
    const charged = event.creditsChargedMicro ?? 1_000;
    return {
      id: newId(),
      organizationId: event.organizationId,
      agentId: event.agentId ?? null,
      feature: event.feature ?? "chat",
      provider: event.provider ?? "openai",
      modelName: event.modelName ?? "gpt-4o-mini",
      inputTokens: event.inputTokens ?? 10,
      outputTokens: event.outputTokens ?? 5,
      creditsChargedMicro: charged,
      creditsChargedRawMicro: charged,
      creditsRequestedMicro: charged,
      occurredAt: event.occurredAt,
      conversationId: event.conversationId ?? null,
    };
  });
  await createConsumptionEventRepo(app.database.db).recordMany(rows);
  return rows.map((row) => row.id);
}
