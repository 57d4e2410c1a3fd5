import { sql } from "drizzle-orm";
import { describe, expect, vi } from "vitest";
import type { FakeOpenAI } from "../fakes/openai-server.ts";
import { type AgentFields, createAgent, createFundedOrganization } from "../harness/agents.ts";
import { startTestApp, type TestApp, type TestOrganization } from "../harness/app.ts";
import { appTest } from "../harness/fixtures.ts";

// Each API process keeps the agents its queries read for up to a minute; these tests wait far
// less, so they pass only when the change itself reaches the process.
const NOTICED_WITHIN = { timeout: 5_000, interval: 50 };

const test = appTest().extend("second", { scope: "file" }, async ({ app, fake }, { onCleanup }) => {
  // A second API process on the same database.
  const second = await startTestApp({
    env: { OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: fake.url },
    database: app.database,
    role: "api",
  });
  onCleanup(() => second.close());
  return second;
});

/** The system prompt of the model call that a query through `app` made. */
async function systemPromptOf(
  { org, fake }: { org: TestOrganization; fake: FakeOpenAI },
  app: TestApp,
  agentId: string,
): Promise<string> {
  const question = `Which prompt? ${Math.random()}`;
  const response = await app.client(org.auth).agents.query(agentId, { query: question });
  expect(response.status).toBe(200);
  const sent = await fake.waitFor((request) => JSON.stringify(request.body).includes(question));
  const messages = (sent.body as { messages: Array<{ role: string; content: string }> }).messages;
  return messages.find((message) => message.role === "system")?.content ?? "";
}

const patch = (app: TestApp, org: TestOrganization, agentId: string, fields: AgentFields) =>
  app.client(org.auth).agents.update(agentId, fields);

describe("agents that API processes have read for queries", () => {
  test("answer with an agent's new settings at once in the process that changed it, promptly in the other", async ({
    app: first,
    second,
    org,
    fake,
  }) => {
    const agent = await createAgent(first, org, { systemPrompt: "Mention the order number." });
    for (const app of [first, second]) {
      expect(await systemPromptOf({ org, fake }, app, agent.id)).toContain(
        "Mention the order number.",
      );
    }
    expect((await patch(first, org, agent.id, { systemPrompt: "Answer in French." })).status).toBe(
      200,
    );
    expect(await systemPromptOf({ org, fake }, first, agent.id)).toContain("Answer in French.");
    await vi.waitFor(
      async () =>
        expect(await systemPromptOf({ org, fake }, second, agent.id)).toContain(
          "Answer in French.",
        ),
      NOTICED_WITHIN,
    );
  });

  test("follow a change made in SQL", async ({ app: first, second, org, fake }) => {
    const agent = await createAgent(first, org, { systemPrompt: "Be brief." });
    for (const app of [first, second]) {
      expect(await systemPromptOf({ org, fake }, app, agent.id)).toContain("Be brief.");
    }
    await first.database.db.execute(
      sql`update agents set system_prompt = 'Be thorough.' where id = ${agent.id}`,
    );
    for (const app of [first, second]) {
      await vi.waitFor(
        async () =>
          expect(await systemPromptOf({ org, fake }, app, agent.id)).toContain("Be thorough."),
        NOTICED_WITHIN,
      );
    }
  });

  test("answer 404 once the agent is deleted", async ({ app: first, second, org }) => {
    const agent = await createAgent(first, org);
    for (const app of [first, second]) {
      expect((await app.client(org.auth).agents.query(agent.id, { query: "Hello" })).status).toBe(
        200,
      );
    }
    const deleted = await first.client(org.auth).agents.delete(agent.id);
    expect(deleted.status).toBe(200);
    expect((await first.client(org.auth).agents.query(agent.id, { query: "Hello" })).status).toBe(
      404,
    );
    await vi.waitFor(
      async () =>
        expect(
          (await second.client(org.auth).agents.query(agent.id, { query: "Hello" })).status,
        ).toBe(404),
      NOTICED_WITHIN,
    );
  });

  test("stay invisible to other organizations", async ({ app: first, org }) => {
    const agent = await createAgent(first, org);
    expect((await first.client(org.auth).agents.query(agent.id, { query: "Hello" })).status).toBe(
      200,
    );
    const other = await createFundedOrganization(first, "Other");
    expect((await first.client(other.auth).agents.query(agent.id, { query: "Hello" })).status).toBe(
      404,
    );
    const read = await first.client(other.auth).agents.get(agent.id);
    expect(read.status).toBe(404);
  });
});
