import { type FakeOpenAI, startFakeOpenAI } from "../fakes/openai-server.ts";
import { ADMIN_TOKEN, startTestApp, type TestApp, type TestOrganization } from "../harness/app.ts";

export type QueryTestApp = { app: TestApp; fake: FakeOpenAI; close(): Promise<void> };

/** The app with OpenAI models pointed at a fake OpenAI server on 127.0.0.1. */
export async function startQueryTestApp(env: Record<string, string> = {}): Promise<QueryTestApp> {
  const fake = await startFakeOpenAI({ apiKey: "sk-test" });
  const app = await startTestApp({
    env: { OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: fake.url, ...env },
  });
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
  const granted = await app.api.inject({
    method: "POST",
    url: `/api/admin/organizations/${org.id}/credits`,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    payload: { amount: 1_000 },
  });
  if (granted.statusCode !== 201) throw new Error(`grant credits: ${granted.body}`);
  return org;
}

export async function createAgent(
  app: TestApp,
  org: TestOrganization,
  body: Record<string, unknown> = {},
): Promise<Record<string, unknown> & { id: string }> {
  const response = await app.api.inject({
    method: "POST",
    url: "/api/agents",
    headers: org.auth,
    payload: { name: "Support", modelName: "gpt_4o_mini", ...body },
  });
  if (response.statusCode !== 201) throw new Error(`createAgent: ${response.body}`);
  return response.json();
}

export async function query(
  app: TestApp,
  org: TestOrganization,
  agentId: string,
  body: Record<string, unknown>,
) {
  return app.api.inject({
    method: "POST",
    url: `/api/agents/${agentId}/query`,
    headers: org.auth,
    payload: body,
  });
}
