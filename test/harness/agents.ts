import type { z } from "zod";
import type { Role } from "../../src/app/runtime.ts";
import type { createAgentBody } from "../../src/http/routes/agents/agent-schemas.ts";
import type { Logger } from "../../src/lib/logger.ts";
import { type FakeOpenAI, startFakeOpenAI } from "../fakes/openai-server.ts";
import { startTestApp, type TestApp, type TestOrganization } from "./app.ts";

export type QueryTestApp = { app: TestApp; fake: FakeOpenAI; close(): Promise<void> };
export type AgentFields = Partial<z.input<typeof createAgentBody>>;

/**
 * The app with OpenAI models pointed at a fake OpenAI server on 127.0.0.1; `offline` leaves the
 * app without any provider key, as a fresh install (the fake then runs unused).
 */
export async function startQueryTestApp(
  env: Record<string, string> = {},
  { offline = false, role, logger }: { offline?: boolean; role?: Role; logger?: Logger } = {},
): Promise<QueryTestApp> {
  const fake = await startFakeOpenAI({ apiKey: "sk-test" });
  const modelEnv: Record<string, string> = offline
    ? {}
    : { OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: fake.url };
  const app = await startTestApp({ env: { ...modelEnv, ...env }, role, logger });
  return {
    app,
    fake,
    async close() {
      await app.close();
      await fake.close();
    },
  };
}

/** An organization with credits, so the free plan's 5 messages do not end a test early. */
export async function createFundedOrganization(
  app: TestApp,
  name = "Acme",
): Promise<TestOrganization> {
  const org = await app.createOrganization(name);
  const granted = await app.admin.admin.grantCredits(org.id, { amount: 1_000 });
  if (granted.status !== 201) throw new Error(`grant credits: ${granted.text}`);
  return org;
}

/** An agent named Support on gpt_4o_mini unless `fields` say otherwise (status 201 required). */
export async function createAgent(app: TestApp, org: TestOrganization, fields: AgentFields = {}) {
  const created = await app
    .client(org.auth)
    .agents.create({ name: "Support", modelName: "gpt_4o_mini", ...fields });
  if (created.status !== 201) throw new Error(`createAgent: ${created.text}`);
  return created.body;
}
