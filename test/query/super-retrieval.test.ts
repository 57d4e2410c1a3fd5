import { describe, expect } from "vitest";
import { parseKnowledgeBlock } from "../../src/models/knowledge-prompt.ts";
import type { FakeOpenAI, RecordedRequest } from "../fakes/openai-server.ts";
import {
  callOf,
  EVALUATOR_PROMPT,
  type HelperCall,
  helperModel,
  passagesOf,
  QUERY_PROMPT,
  systemOf,
  userOf,
} from "../fakes/retrieval-helper-model.ts";
import { type AgentFields, createAgent } from "../harness/agents.ts";
import { appTest } from "../harness/fixtures.ts";
import { postSse, summarize } from "../harness/sse-client.ts";
import { addFile, createDatastore, waitForSync } from "../knowledge/knowledge-helpers.ts";

// Two passages per search, so what a query finds depends on its words.
const test = appTest({ env: { QUERY_KNOWLEDGE_TOP_K: "2", MODEL_TIMEOUT_MS: "5000" } });

const FILES: Array<[string, string]> = [
  ["refunds.md", "Refunds are accepted within 30 days of delivery, to the original card."],
  ["shipping.md", "Parcels leave our warehouse in Rotterdam every weekday at noon."],
  ["hours.md", "We are open Monday to Friday, 9:00 to 17:00."],
  ["warranty.md", "The warranty covers manufacturing defects for two years."],
  ["payments.md", "We take Visa, Mastercard and bank transfers; invoices are in euros."],
  ["returns.md", "Returned items must be unused and in their original packaging."],
];

let datastoreId: string;
test.beforeAll(async ({ app, org }) => {
  datastoreId = (await createDatastore(app, org, { name: "Help centre" })).id;
  for (const [fileName, content] of FILES) {
    const datasource = await addFile(app, org, datastoreId, {
      fileName,
      contentType: "text/markdown",
      content,
    });
    expect((await waitForSync(app, org, datasource.id)).status).toBe("synched");
  }
});

test.afterEach(({ fake }) => fake.setDefaultChat(undefined));

const chats = (fake: FakeOpenAI, call?: HelperCall) =>
  fake.requests.filter(
    (request) =>
      request.path === "/v1/chat/completions" && (call === undefined || callOf(request) === call),
  );

/** The agent's settings with the test's prompts, so the fake can tell the calls apart. */
const config = (fields: Record<string, unknown> = {}) => ({
  generateQueryPrompt: QUERY_PROMPT,
  evaluatorPrompt: EVALUATOR_PROMPT,
  ...fields,
});

async function superAgent(
  app: Parameters<typeof createAgent>[0],
  org: Parameters<typeof createAgent>[1],
  fields: AgentFields & { retrievalEvaluationConfig?: Record<string, unknown> } = {},
) {
  return createAgent(app, org, {
    name: "Super",
    datastoreIds: [datastoreId],
    useSuperRetrieval: true,
    ...fields,
    retrievalEvaluationConfig: config(fields.retrievalEvaluationConfig),
  });
}

const mentions = (word: string) => (passage: string) => (passage.includes(word) ? 0.9 : 0.1);
const promptSources = (request: RecordedRequest | undefined) =>
  request ? parseKnowledgeBlock(systemOf(request)).map((passage) => passage.source) : [];

describe("generateQueryPrompt and retrievalModelName", () => {
  test("the queries the model writes are searched, and what they find reaches the answer", async ({
    app,
    org,
    api,
    fake,
  }) => {
    const question = "Can I get my money back?";
    const plain = await createAgent(app, org, { name: "Plain", datastoreIds: [datastoreId] });
    const before = await api.agents.query(plain.id, { query: question });
    expect(before.body.sources.map((source) => source.source)).not.toContain("refunds.md");

    fake.setDefaultChat(
      helperModel({
        queries: () => ["refunds accepted within 30 days", "refund delivery card"],
        score: mentions("Refunds"),
      }),
    );
    const agent = await superAgent(app, org, {
      retrievalEvaluationConfig: { retrievalModelName: "gpt_41_nano" },
    });
    fake.requests.length = 0;
    const response = await api.agents.query(agent.id, { query: question });
    expect(response.status).toBe(200);
    expect(response.body.sources).toEqual([
      { source: "refunds.md", chunk: expect.stringContaining("Refunds are accepted") },
    ]);
    const [writer] = chats(fake, "queries");
    expect(writer?.body?.model).toBe("gpt-4.1-nano");
    expect(userOf(writer!)).toContain(question);
    expect(promptSources(chats(fake, "answer")[0])).toEqual(["refunds.md"]);
  });

  test("the query model reads the conversation so far", async ({ app, org, api, fake }) => {
    fake.setDefaultChat(helperModel({ queries: () => ["warranty"], score: () => 1 }));
    const agent = await superAgent(app, org);
    const first = await api.agents.query(agent.id, { query: "I bought a kettle in May." });
    fake.requests.length = 0;
    await api.agents.query(agent.id, {
      query: "Is it still covered?",
      conversationId: first.body.conversationId,
    });
    expect(userOf(chats(fake, "queries")[0]!)).toContain("Customer: I bought a kettle in May.");
  });
});

describe("evaluatorPrompt, evaluatorModelName and evaluationThreshold", () => {
  test("passages the evaluator scores under the threshold are dropped", async ({
    app,
    org,
    api,
    fake,
  }) => {
    fake.setDefaultChat(
      helperModel({ queries: () => ["warehouse Rotterdam parcels"], score: mentions("Parcels") }),
    );
    const agent = await superAgent(app, org, {
      retrievalEvaluationConfig: { evaluatorModelName: "gpt_41_mini" },
    });
    const response = await api.agents.query(agent.id, { query: "When do parcels leave?" });
    const judge = chats(fake, "evaluation")[0]!;
    expect(judge.body?.model).toBe("gpt-4.1-mini");
    expect(passagesOf(judge).length).toBeGreaterThan(1);
    expect(response.body.sources.map((source) => source.source)).toEqual(["shipping.md"]);
  });

  test("a lower threshold keeps the passages scored above it", async ({ app, org, api, fake }) => {
    fake.setDefaultChat(
      helperModel({ queries: () => ["warehouse Rotterdam parcels"], score: mentions("Parcels") }),
    );
    const agent = await superAgent(app, org, {
      retrievalEvaluationConfig: { evaluationThreshold: 0.05 },
    });
    const response = await api.agents.query(agent.id, { query: "When do parcels leave?" });
    const judged = passagesOf(chats(fake, "evaluation")[0]!).length;
    expect(response.body.sources).toHaveLength(judged);
    expect(judged).toBeGreaterThan(1);
  });
});

describe("retrievalRounds", () => {
  const everNew = (request: RecordedRequest) => {
    const round = (userOf(request).match(/^- /gm) ?? []).length;
    return [`payments invoices euros ${round}`, `opening hours ${round}`];
  };

  test("rounds run while nothing passes the evaluator, and stop at the limit", async ({
    app,
    org,
    api,
    fake,
  }) => {
    fake.setDefaultChat(helperModel({ queries: everNew, score: () => 0 }));
    const agent = await superAgent(app, org, { retrievalEvaluationConfig: { retrievalRounds: 3 } });
    const response = await api.agents.query(agent.id, { query: "Tell me about bicycles" });
    expect(response.status).toBe(200);
    expect(chats(fake, "queries")).toHaveLength(3);
    expect(userOf(chats(fake, "queries")[2]!)).toContain("write different ones");
    expect(response.body.sources).toEqual([]);
    const stored = await api.conversations.get(response.body.conversationId);
    expect(stored.body.messages[1].metadata.superRetrieval).toMatchObject({ rounds: 3, kept: 0 });
  });

  test("one round is enough when the evaluator keeps a passage", async ({
    app,
    org,
    api,
    fake,
  }) => {
    fake.setDefaultChat(helperModel({ queries: everNew, score: () => 1 }));
    const agent = await superAgent(app, org, { retrievalEvaluationConfig: { retrievalRounds: 3 } });
    await api.agents.query(agent.id, { query: "How do I pay?" });
    expect(chats(fake, "queries")).toHaveLength(1);
  });
});

describe("generationModelName, modelTemperatures, modelMaxTokens, additionalConfig", () => {
  test("each call gets its model's temperature and max tokens, and the extra settings", async ({
    app,
    org,
    api,
    fake,
  }) => {
    fake.setDefaultChat(helperModel({ queries: () => ["refunds"], score: () => 1 }));
    const agent = await superAgent(app, org, {
      modelName: "gpt_4o_mini",
      temperature: 1,
      retrievalEvaluationConfig: {
        generationModelName: "gpt_41",
        retrievalModelName: "gpt_4o",
        modelTemperatures: { gpt_41: 0.3, gpt_4o: 0.7 },
        modelMaxTokens: { gpt_41: 321, gpt_4o: 77 },
        additionalConfig: { seed: 7, topP: 0.9, somethingElse: true },
      },
    });
    const response = await api.agents.query(agent.id, { query: "refund?" });
    expect(response.body.model).toBe("gpt_41");
    const answer = chats(fake, "answer")[0]!.body!;
    expect(answer).toMatchObject({ model: "gpt-4.1", temperature: 0.3, seed: 7, top_p: 0.9 });
    expect(answer.max_tokens ?? answer.max_completion_tokens).toBe(321);
    const writer = chats(fake, "queries")[0]!.body!;
    expect(writer).toMatchObject({ model: "gpt-4o", temperature: 0.7, seed: 7 });
    expect(writer.max_tokens ?? writer.max_completion_tokens).toBe(77);
    // The evaluator defaults to the retrieval model.
    expect(chats(fake, "evaluation")[0]!.body).toMatchObject({ model: "gpt-4o", temperature: 0.7 });
  });

  test("without super retrieval the same config is not applied", async ({
    app,
    org,
    api,
    fake,
  }) => {
    const agent = await superAgent(app, org, {
      useSuperRetrieval: false,
      retrievalEvaluationConfig: { generationModelName: "gpt_41" },
    });
    const response = await api.agents.query(agent.id, { query: "refund?" });
    expect(response.body.model).toBeUndefined();
    expect(chats(fake).map((request) => request.body?.model)).toEqual(["gpt-4o-mini"]);
  });
});

describe("fallbackModels", () => {
  const failing = (model: string) =>
    helperModel({
      queries: () => ["refunds"],
      score: () => 1,
      answer: (request) =>
        request.body?.model === model ? { status: 400 } : { text: `from ${request.body?.model}` },
    });

  test("the next model answers when the first fails, and both response and message say so", async ({
    app,
    org,
    api,
    fake,
  }) => {
    fake.setDefaultChat(failing("gpt-4.1"));
    const agent = await superAgent(app, org, {
      retrievalEvaluationConfig: {
        generationModelName: "gpt_41",
        fallbackModels: ["gpt_4o", "gpt_41_nano"],
      },
    });
    const response = await api.agents.query(agent.id, { query: "refund?" });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ answer: "from gpt-4o", model: "gpt_4o" });
    expect(chats(fake, "answer").map((request) => request.body?.model)).toEqual([
      "gpt-4.1",
      "gpt-4o",
    ]);
    const stored = await api.conversations.get(response.body.conversationId);
    expect(stored.body.messages[1].metadata).toMatchObject({
      model: { modelName: "gpt_4o", providerModelId: "gpt-4o" },
      failedModels: [{ model: "gpt_41", error: expect.stringContaining("HTTP 400") }],
    });
    const events = await api.consumptionEvents.list({
      conversationId: response.body.conversationId,
      feature: "chat",
    });
    expect(events.body.data.map((event) => event.modelName)).toEqual(["gpt-4o"]);
  });

  test("a streamed answer falls back before its first token", async ({ app, org, fake }) => {
    fake.setDefaultChat(failing("gpt-4.1"));
    const agent = await superAgent(app, org, {
      retrievalEvaluationConfig: { generationModelName: "gpt_41", fallbackModels: ["gpt_4o"] },
    });
    const base = await app.listen("api");
    const result = await postSse(`${base}/api/agents/${agent.id}/query`, org.auth, {
      query: "refund?",
      streaming: true,
    });
    const { answer, response, last } = summarize(result);
    expect(answer).toBe("from gpt-4o");
    expect(response).toMatchObject({ model: "gpt_4o" });
    expect(last).toBe("[DONE]");
  });

  test("without fallbacks the failure is the answer's", async ({ app, org, api, fake }) => {
    fake.setDefaultChat(failing("gpt-4.1"));
    const agent = await superAgent(app, org, {
      retrievalEvaluationConfig: { generationModelName: "gpt_41" },
    });
    const response = await api.agents.query(agent.id, { query: "refund?" });
    expect(response.status).toBe(500);
    expect(response.error.error).toContain("gpt_41");
  });
});

describe("enableModelComparison and comparisonModels", () => {
  const byModel = helperModel({
    queries: () => ["refunds"],
    score: () => 1,
    answer: (request) => ({ text: `answer of ${request.body?.model}` }),
  });

  test("comparison answers are stored and returned beside the answer, and charged", async ({
    app,
    org,
    api,
    fake,
  }) => {
    fake.setDefaultChat(byModel);
    const agent = await superAgent(app, org, {
      modelName: "gpt_4o_mini",
      retrievalEvaluationConfig: {
        enableModelComparison: true,
        comparisonModels: ["gpt_41_nano", "claude_4_sonnet"],
      },
    });
    const response = await api.agents.query(agent.id, { query: "refund?" });
    expect(response.body.answer).toBe("answer of gpt-4o-mini");
    expect(response.body.comparisons).toEqual([
      {
        model: "gpt_41_nano",
        answer: "answer of gpt-4.1-nano",
        usage: expect.objectContaining({ totalTokens: expect.any(Number) }),
      },
      { model: "claude_4_sonnet", error: "No provider key is configured for this model" },
    ]);
    const stored = await api.conversations.get(response.body.conversationId);
    expect(stored.body.messages[1].metadata.comparisons).toEqual(response.body.comparisons);
    expect(stored.body.messages[1].text).toBe("answer of gpt-4o-mini");

    const events = await api.consumptionEvents.list({
      conversationId: response.body.conversationId,
      orderBy: "occurredAt_asc",
    });
    expect(
      events.body.data
        .map((event) => [event.feature, event.modelName, event.creditsCharged > 0])
        .sort((left, right) => String(left[0]).localeCompare(String(right[0]))),
    ).toEqual([
      ["chat", "gpt-4o-mini", true],
      ["model_comparison", "gpt-4.1-nano", true],
      ["super_retrieval", "gpt-4o-mini", true],
      ["super_retrieval", "gpt-4o-mini", true],
    ]);
  });

  test("comparisonModels alone compare nothing", async ({ app, org, api, fake }) => {
    fake.setDefaultChat(byModel);
    const agent = await superAgent(app, org, {
      retrievalEvaluationConfig: { comparisonModels: ["gpt_41_nano"] },
    });
    const response = await api.agents.query(agent.id, { query: "refund?" });
    expect(response.body.comparisons).toBeUndefined();
    expect(chats(fake, "answer").map((request) => request.body?.model)).toEqual(["gpt-4o-mini"]);
  });
});

describe("usage limits", () => {
  test("402 before the first model call once the free plan is used up", async ({ app, fake }) => {
    fake.setDefaultChat(helperModel({ queries: () => ["refunds"], score: () => 1 }));
    const free = await app.createOrganization("Free plan");
    const store = await createDatastore(app, free, { name: "Free" });
    const agent = await createAgent(app, free, {
      datastoreIds: [store.id],
      useSuperRetrieval: true,
      retrievalEvaluationConfig: config(),
    });
    for (let index = 0; index < 5; index += 1) {
      expect(
        (await app.client(free.auth).agents.query(agent.id, { query: `q${index}` })).status,
      ).toBe(200);
    }
    fake.requests.length = 0;
    const refused = await app.client(free.auth).agents.query(agent.id, { query: "one more" });
    expect(refused.status).toBe(402);
    expect(fake.requests).toHaveLength(0);
  });
});
