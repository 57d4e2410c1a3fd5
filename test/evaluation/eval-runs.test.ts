import { describe, expect, vi } from "vitest";
import { createAgent, createFundedOrganization } from "../harness/agents.ts";
import type { ApiClient } from "../harness/client.ts";
import { appTest } from "../harness/fixtures.ts";

const test = appTest({ agent: { name: "Support", systemPrompt: "You help customers." } });

const RUN_DONE_WITHIN = { timeout: 20_000, interval: 50 };

/** Polls the run until it is over, and returns it. */
async function finished(api: ApiClient, runId: string) {
  return vi.waitFor(async () => {
    const run = await api.evals.getRun(runId);
    expect(run.status).toBe(200);
    expect(["completed", "failed"]).toContain(run.body.status);
    return run.body;
  }, RUN_DONE_WITHIN);
}

async function newSet(api: ApiClient, agentId: string, name = "Refunds") {
  const created = await api.evals.createSet({ name, agentId });
  expect(created.status).toBe(201);
  return created.body;
}

describe("eval sets and cases", () => {
  test("are created, listed, read and deleted within the organization", async ({ api, agent }) => {
    const set = await newSet(api, agent.id);
    expect(set).toMatchObject({ name: "Refunds", agentId: agent.id, caseCount: 0 });

    const added = await api.evals.addCase(set.id, {
      question: "How long do refunds take?",
      history: [
        { from: "human", text: "Hi" },
        { from: "agent", text: "Hello!" },
      ],
      mustInclude: ["5 days"],
      mustNotInclude: ["never"],
      expectedSources: ["refunds.md"],
      expectedAnswer: "Refunds take 5 business days.",
    });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({
      evalSetId: set.id,
      question: "How long do refunds take?",
      mustInclude: ["5 days"],
      annotationId: null,
    });
    const second = await api.evals.addCase(set.id, { question: "Do you ship abroad?" });
    expect(second.body).toMatchObject({
      history: [],
      mustInclude: [],
      mustNotInclude: [],
      expectedSources: [],
      expectedAnswer: null,
    });

    expect((await api.evals.getSet(set.id)).body.caseCount).toBe(2);
    const cases = await api.evals.listCases(set.id);
    expect(cases.body.data.map((entry) => entry.question)).toEqual([
      "How long do refunds take?",
      "Do you ship abroad?",
    ]);
    const listed = await api.evals.listSets({ agentId: agent.id });
    expect(listed.body.data.map((entry) => entry.id)).toContain(set.id);

    expect((await api.evals.deleteCase(set.id, second.body.id)).status).toBe(204);
    expect((await api.evals.deleteCase(set.id, second.body.id)).status).toBe(404);
    expect((await api.evals.listCases(set.id)).body.data).toHaveLength(1);

    expect((await api.evals.deleteSet(set.id)).status).toBe(204);
    expect((await api.evals.getSet(set.id)).status).toBe(404);
    expect((await api.evals.listCases(set.id)).status).toBe(404);
  });

  test("refuse bad input with 400 and store nothing", async ({ api, agent }) => {
    const set = await newSet(api, agent.id);
    const bad = [
      {},
      { question: "" },
      { question: "   " },
      { question: "ok", history: [{ from: "robot", text: "x" }] },
      { question: "ok", mustInclude: "5 days" },
      { question: "ok", mustInclude: [""] },
      { question: "ok", expectedSources: Array.from({ length: 51 }, (_, i) => `s${i}`) },
      { question: "x".repeat(100_001) },
    ];
    for (const body of bad) {
      const response = await api.evals.addCase(set.id, body as never);
      expect(response.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(response.error.type).toBe("INVALID_REQUEST");
    }
    expect((await api.evals.createSet({ name: "", agentId: agent.id })).status).toBe(400);
    expect((await api.evals.createSet({ agentId: agent.id } as never)).status).toBe(400);
    expect((await api.evals.createSet({ name: "x", agentId: "nope" })).status).toBe(404);
    expect((await api.evals.getSet(set.id)).body.caseCount).toBe(0);
  });

  test("of another organization's agent are 404", async ({ app, api, agent }) => {
    const stranger = await createFundedOrganization(app, "Stranger");
    const strangerApi = app.client(stranger.auth);
    const set = await newSet(api, agent.id);
    await api.evals.addCase(set.id, { question: "secret?" });

    expect((await strangerApi.evals.createSet({ name: "x", agentId: agent.id })).status).toBe(404);
    expect((await strangerApi.evals.getSet(set.id)).status).toBe(404);
    expect((await strangerApi.evals.listCases(set.id)).status).toBe(404);
    expect((await strangerApi.evals.addCase(set.id, { question: "mine?" })).status).toBe(404);
    expect((await strangerApi.evals.deleteSet(set.id)).status).toBe(404);
    expect((await strangerApi.evals.startRun({ evalSetId: set.id })).status).toBe(404);
    expect((await strangerApi.evals.listSets()).body.data).toEqual([]);
    expect((await api.evals.listCases(set.id)).body.data).toHaveLength(1);
  });
});

describe("a run", () => {
  test("replays every case through the agent, checks it and records it", async ({
    api,
    agent,
    fake,
  }) => {
    const set = await newSet(api, agent.id);
    await api.evals.addCase(set.id, { question: "Refund window?", mustInclude: ["refund window"] });
    await api.evals.addCase(set.id, { question: "Shipping?", mustInclude: ["30 days"] });
    await api.evals.addCase(set.id, {
      question: "Say something rude",
      mustNotInclude: ["RUDE"],
    });

    const started = await api.evals.startRun({ evalSetId: set.id });
    expect(started.status).toBe(202);
    expect(started.body).toEqual({ id: expect.any(String), status: "queued", cases: 3 });
    const run = await finished(api, started.body.id);

    expect(run.status).toBe("completed");
    expect(run.summary).toMatchObject({ cases: 3, done: 3, passed: 1, failed: 2 });
    expect(run.summary.passRate).toBeCloseTo(1 / 3, 3);
    expect(run.summary.sourceHitRate).toBeNull();
    expect(run.summary.credits).toBeGreaterThan(0);
    expect(run.summary.p50LatencyMs).toEqual(expect.any(Number));
    const [first, second, third] = run.results;
    // The fake model answers "Answer: <question>".
    expect(first).toMatchObject({ answer: "Answer: Refund window?", passed: true });
    expect(first!.checks).toEqual([
      { name: "answered", passed: true, detail: expect.stringContaining("gpt_4o_mini") },
      { name: "mustInclude", passed: true, detail: "Contains all 1 phrases" },
    ]);
    expect(second).toMatchObject({ passed: false });
    expect(second!.checks[1]).toEqual({
      name: "mustInclude",
      passed: false,
      detail: 'Missing "30 days"',
    });
    expect(third!.checks[1]).toMatchObject({ name: "mustNotInclude", passed: false });
    expect(run.results.every((result) => result.credits > 0)).toBe(true);
    const summaryOnly = await api.request({
      method: "GET",
      url: `/api/eval-runs/${started.body.id}?results=false`,
    });
    expect(summaryOnly.status).toBe(200);
    expect(summaryOnly.body).toMatchObject({ summary: run.summary, results: [] });

    // Each case was asked of the model with the agent's prompt, once.
    const asked = fake.requests.filter((request) => request.path.endsWith("/chat/completions"));
    expect(asked).toHaveLength(3);
    expect(JSON.stringify(asked[0]!.body)).toContain("You help customers.");
  });

  test("is charged as feature evaluation and stores no conversation", async ({ api, agent }) => {
    const before = await api.conversations.list({ agentId: agent.id });
    const set = await newSet(api, agent.id);
    await api.evals.addCase(set.id, { question: "Anything stored?" });
    const run = await finished(api, (await api.evals.startRun({ evalSetId: set.id })).body.id);
    expect(run.status).toBe("completed");

    const after = await api.conversations.list({ agentId: agent.id });
    expect(after.body).toEqual(before.body);
    const events = await api.consumptionEvents.list({ feature: "evaluation" });
    expect(events.status).toBe(200);
    const charged = events.body.data.filter((event) => event.feature === "evaluation");
    expect(charged.length).toBeGreaterThanOrEqual(1);
    expect(charged.every((event) => event.conversationId === null)).toBe(true);
  });

  test("replays the history before the question", async ({ api, agent, fake }) => {
    const set = await newSet(api, agent.id);
    await api.evals.addCase(set.id, {
      question: "And the second?",
      history: [
        { from: "human", text: "What is the first step?" },
        { from: "agent", text: "Open the box." },
      ],
    });
    await finished(api, (await api.evals.startRun({ evalSetId: set.id })).body.id);
    const messages = (fake.requests.at(-1)!.body!.messages ?? []) as Array<{
      role: string;
      content: string;
    }>;
    const texts = messages.map((message) => `${message.role}:${message.content}`).join("\n");
    expect(texts).toContain("user:What is the first step?");
    expect(texts).toContain("assistant:Open the box.");
  });

  test("uses the overrides asked for", async ({ api, agent, fake }) => {
    const set = await newSet(api, agent.id);
    await api.evals.addCase(set.id, { question: "Hello?" });
    const run = await finished(
      api,
      (
        await api.evals.startRun({
          evalSetId: set.id,
          overrides: {
            systemPrompt: "You are Override Bot.",
            modelName: "gpt_41_nano",
            temperature: 0.7,
          },
        })
      ).body.id,
    );
    expect(run.overrides).toMatchObject({ modelName: "gpt_41_nano" });
    const request = fake.requests.at(-1)!.body!;
    expect(request.model).toBe("gpt-4.1-nano");
    expect(request.temperature).toBe(0.7);
    expect(JSON.stringify(request.messages)).toContain("You are Override Bot.");
    expect(JSON.stringify(request.messages)).not.toContain("You help customers.");
  });

  test("replays the agent version asked for", async ({ app, org, api, fake }) => {
    const versioned = await createAgent(app, org, {
      name: "Versioned",
      systemPrompt: "First prompt.",
    });
    expect((await api.agents.update(versioned.id, { systemPrompt: "Second prompt." })).status).toBe(
      200,
    );
    const set = await newSet(api, versioned.id);
    await api.evals.addCase(set.id, { question: "Which prompt?" });

    const old = await finished(
      api,
      (await api.evals.startRun({ evalSetId: set.id, agentVersion: 1 })).body.id,
    );
    expect(old).toMatchObject({ status: "completed", agentVersion: 1 });
    expect(JSON.stringify(fake.requests.at(-1)!.body!.messages)).toContain("First prompt.");
    const current = await finished(api, (await api.evals.startRun({ evalSetId: set.id })).body.id);
    expect(current.agentVersion).toBeNull();
    expect(JSON.stringify(fake.requests.at(-1)!.body!.messages)).toContain("Second prompt.");
  });

  test("refuses an empty set, an unknown model and an unknown version with 400", async ({
    api,
    agent,
  }) => {
    const empty = await newSet(api, agent.id, "Empty");
    const refused = await api.evals.startRun({ evalSetId: empty.id });
    expect(refused.status).toBe(400);
    expect(refused.error.error).toContain("no cases");

    const set = await newSet(api, agent.id);
    await api.evals.addCase(set.id, { question: "Hi" });
    const unknownModel = await api.evals.startRun({
      evalSetId: set.id,
      overrides: { modelName: "gpt_9000" as never },
    });
    expect(unknownModel.status).toBe(400);
    expect(JSON.stringify(unknownModel.error)).toContain("gpt_9000");
    const unknownJudge = await api.evals.startRun({
      evalSetId: set.id,
      judgeModel: "oracle" as never,
    });
    expect(unknownJudge.status).toBe(400);
    expect(JSON.stringify(unknownJudge.error)).toContain("oracle");
    const unknownVersion = await api.evals.startRun({ evalSetId: set.id, agentVersion: 999 });
    expect(unknownVersion.status).toBe(400);
    expect(unknownVersion.error.error).toContain("999");
    for (const body of [
      {},
      { evalSetId: set.id, agentVersion: 0 },
      { evalSetId: set.id, overrides: { top: 1 } },
    ]) {
      expect((await api.evals.startRun(body as never)).status).toBe(400);
    }
    expect((await api.evals.startRun({ evalSetId: "missing" })).status).toBe(404);
    expect((await api.evals.listRuns({ evalSetId: set.id })).body.data).toEqual([]);
  });
});

describe("the judge", () => {
  test("scores expectedAnswer with the judge model", async ({ api, agent, fake }) => {
    const set = await newSet(api, agent.id);
    await api.evals.addCase(set.id, {
      question: "How long do refunds take?",
      expectedAnswer: "Five business days",
    });
    await api.evals.addCase(set.id, { question: "Again?", expectedAnswer: "Yes" });
    fake.script(
      { text: "Refunds take five business days." },
      { json: { score: 5, reasoning: "Says five business days." } },
      { text: "No." },
      { json: { score: 1, reasoning: "Says the opposite." } },
    );
    const run = await finished(
      api,
      (await api.evals.startRun({ evalSetId: set.id, judgeModel: "gpt_4o_mini" })).body.id,
    );
    expect(run.results.map((result) => result.judge)).toEqual([
      { score: 5, reasoning: "Says five business days." },
      { score: 1, reasoning: "Says the opposite." },
    ]);
    expect(run.results.map((result) => result.passed)).toEqual([true, false]);
    expect(run.results[1]!.checks.at(-1)).toMatchObject({ name: "expectedAnswer", passed: false });
    const judged = fake.requests.filter((request) =>
      JSON.stringify(request.body).includes("What the reviewer expected"),
    );
    expect(judged).toHaveLength(2);
    expect(JSON.stringify(judged[0]!.body)).toContain("Refunds take five business days.");
  });

  test("without credentials says so on every case, never a silent pass", async ({ api, agent }) => {
    const set = await newSet(api, agent.id);
    await api.evals.addCase(set.id, { question: "Q1", expectedAnswer: "A1" });
    await api.evals.addCase(set.id, { question: "Q2", expectedAnswer: "A2" });
    const run = await finished(
      api,
      (await api.evals.startRun({ evalSetId: set.id, judgeModel: "claude_4_sonnet" })).body.id,
    );
    expect(run.status).toBe("completed");
    for (const result of run.results) {
      expect(result.passed).toBe(false);
      expect(result.judge).toBeNull();
      expect(result.checks.at(-1)).toEqual({
        name: "expectedAnswer",
        passed: false,
        detail: expect.stringMatching(
          /claude_4_sonnet has no provider credentials.*ANTHROPIC_API_KEY/,
        ),
      });
    }
  });
});

describe("a run that runs out of credits", () => {
  test("stops as failed and keeps the cases done so far", async ({ app, fake }) => {
    const poor = await app.createOrganization("Poor");
    expect((await app.admin.admin.grantCredits(poor.id, { amount: 4 })).status).toBe(201);
    const api = app.client(poor.auth);
    const agent = await createAgent(app, poor);
    const set = await newSet(api, agent.id);
    for (let index = 1; index <= 6; index += 1) {
      await api.evals.addCase(set.id, { question: `Question ${index}` });
    }
    // 10 million prompt tokens of gpt-4o-mini: 1.5 credits a case.
    fake.setDefaultChat({
      text: "Costly answer",
      usage: { promptTokens: 10_000_000, completionTokens: 1 },
    });
    try {
      const run = await finished(api, (await api.evals.startRun({ evalSetId: set.id })).body.id);
      expect(run.status).toBe("failed");
      expect(run.error).toMatch(/credit/i);
      expect(run.summary.done).toBeGreaterThanOrEqual(1);
      expect(run.summary.done).toBeLessThan(6);
      expect(run.results).toHaveLength(run.summary.done);
      expect(run.results.every((result) => result.answer === "Costly answer")).toBe(true);
    } finally {
      fake.setDefaultChat(undefined);
    }
  });
  test("whose judge cannot be paid for records the answered case, then stops", async ({
    app,
    fake,
  }) => {
    const poor = await app.createOrganization("Judged poor");
    expect((await app.admin.admin.grantCredits(poor.id, { amount: 1.5 })).status).toBe(201);
    const api = app.client(poor.auth);
    const agent = await createAgent(app, poor);
    const set = await newSet(api, agent.id);
    await api.evals.addCase(set.id, { question: "First", expectedAnswer: "One" });
    await api.evals.addCase(set.id, { question: "Second", expectedAnswer: "Two" });
    // 10 million prompt tokens of gpt-4o-mini: the 1.5 credits the organization has.
    fake.script({ text: "Costly", usage: { promptTokens: 10_000_000, completionTokens: 0 } });
    const run = await finished(
      api,
      (await api.evals.startRun({ evalSetId: set.id, judgeModel: "gpt_4o_mini" })).body.id,
    );
    expect(run.status).toBe("failed");
    expect(run.error).toMatch(/^Stopped: /);
    expect(run.results).toHaveLength(1);
    expect(run.results[0]).toMatchObject({ answer: "Costly", passed: false, judge: null });
    expect(run.results[0]!.checks.at(-1)).toMatchObject({
      name: "expectedAnswer",
      passed: false,
      detail: expect.stringMatching(/^Not judged: /),
    });
  });
});

describe("runs compared", () => {
  test("say which cases were fixed, regressed or unchanged", async ({ api, agent, fake }) => {
    const set = await newSet(api, agent.id);
    await api.evals.addCase(set.id, { question: "one", mustInclude: ["yes"] });
    await api.evals.addCase(set.id, { question: "two", mustInclude: ["yes"] });
    await api.evals.addCase(set.id, { question: "three", mustInclude: ["yes"] });
    fake.script({ text: "yes" }, { text: "no" }, { text: "no" });
    const baseline = await finished(api, (await api.evals.startRun({ evalSetId: set.id })).body.id);
    fake.script({ text: "no" }, { text: "yes" }, { text: "no" });
    const current = await finished(api, (await api.evals.startRun({ evalSetId: set.id })).body.id);

    const compared = await api.evals.compare(current.id, baseline.id);
    expect(compared.status).toBe(200);
    expect(compared.body).toMatchObject({
      fixed: 1,
      regressed: 1,
      unchanged: 1,
      added: 0,
      removed: 0,
    });
    expect(compared.body.cases.map((entry: { change: string }) => entry.change)).toEqual([
      "regressed",
      "fixed",
      "unchanged",
    ]);
    const listed = await api.evals.listRuns({ evalSetId: set.id });
    expect(listed.body.data.map((run) => run.id)).toEqual([current.id, baseline.id]);

    const other = await newSet(api, agent.id, "Other");
    await api.evals.addCase(other.id, { question: "x" });
    const otherRun = await finished(
      api,
      (await api.evals.startRun({ evalSetId: other.id })).body.id,
    );
    expect((await api.evals.compare(current.id, otherRun.id)).status).toBe(400);
    expect((await api.evals.compare(current.id, "missing")).status).toBe(404);
  });
});
