import { describe, expect } from "vitest";
import { createLogger } from "../../src/lib/logger.ts";
import { createAgent } from "../harness/agents.ts";
import { appTest } from "../harness/fixtures.ts";
import { postSse, summarize } from "../harness/sse-client.ts";
import { addFile, createDatastore, waitForSync } from "../knowledge/knowledge-helpers.ts";

// No provider key at all, as a fresh install; every line the app logs is kept.
const written: string[] = [];
const logger = createLogger("info", "json", { write: (line: string) => written.push(line) });

const test = appTest({ offline: true, orgName: "Keyless", funded: false, logger });

let datastoreId: string;
test.beforeAll(async ({ app, org }) => {
  datastoreId = (await createDatastore(app, org, { name: "Help centre" })).id;
  const datasource = await addFile(app, org, datastoreId, {
    fileName: "hours.txt",
    contentType: "text/plain",
    content: "We are open Monday to Friday, 9:00 to 17:00.\n",
  });
  expect((await waitForSync(app, org, datasource.id)).status).toBe("synched");
});

const degradedLines = () =>
  written.filter((line) => line.includes("super retrieval needs a language model"));

describe("super retrieval without a provider key", () => {
  test("answers with plain retrieval, says so once in the logs, and records it", async ({
    app,
    org,
    api,
  }) => {
    const agent = await createAgent(app, org, {
      datastoreIds: [datastoreId],
      useSuperRetrieval: true,
      retrievalEvaluationConfig: { retrievalRounds: 3, fallbackModels: ["gpt_4o"] },
    });
    const first = await api.agents.query(agent.id, { query: "What are your opening hours?" });
    const second = await api.agents.query(agent.id, { query: "When are you open?" });
    for (const response of [first, second]) {
      expect(response.status).toBe(200);
      expect(response.body.answer).toContain("We are open Monday to Friday, 9:00 to 17:00.");
      // The offline responder wrote it (as usage says), not the model asked for.
      expect(response.body.model).toBe("local-extractive");
    }
    expect(degradedLines()).toHaveLength(1);
    expect(JSON.parse(degradedLines()[0]!)).toMatchObject({ level: 40 });
    expect(degradedLines()[0]).not.toContain("opening hours");

    const stored = await api.conversations.get(first.body.conversationId);
    expect(stored.body.messages[1].metadata.model).toEqual({
      modelName: "local-extractive",
      requestedModelName: "gpt_4o_mini",
      provider: "local",
      providerModelId: "local-extractive",
    });
    expect(stored.body.messages[1].metadata.superRetrieval).toEqual({
      rounds: 0,
      queries: [],
      evaluated: 0,
      kept: 0,
      degraded: true,
    });
    const events = await api.consumptionEvents.list({
      conversationId: first.body.conversationId,
    });
    expect(events.body.data.map((event) => event.feature)).toEqual(["chat"]);

    const base = await app.listen("api");
    const streamed = summarize(
      await postSse(`${base}/api/agents/${agent.id}/query`, org.auth, {
        query: "When do you open?",
        streaming: true,
      }),
    );
    expect(streamed.response?.model).toBe("local-extractive");
  });
});
