import { describe, expect } from "vitest";
import { createAgent } from "../harness/agents.ts";
import { appTest } from "../harness/fixtures.ts";
import { postSse, summarize } from "../harness/sse-client.ts";
import { addFile, createDatastore, waitForSync } from "../knowledge/knowledge-helpers.ts";
import { publicChat } from "./public-chat-helpers.ts";

// A default install: no provider key, so the offline responder answers everyone.
const test = appTest({ offline: true });

/** What only an operator should read: how to configure a model. */
const OPERATOR_HINT = /OPENAI_API_KEY|LLM_BASE_URL|To get written answers|language model/;

let agentId: string;
test.beforeAll(async ({ app, org }) => {
  const datastore = await createDatastore(app, org, { name: "Help centre" });
  const datasource = await addFile(app, org, datastore.id, {
    fileName: "hours.txt",
    contentType: "text/plain",
    content: "We are open Monday to Friday, 9:00 to 17:00.\n",
  });
  expect((await waitForSync(app, org, datasource.id)).status).toBe("synched");
  const agent = await createAgent(app, org, {
    name: "Desk",
    visibility: "public",
    datastoreIds: [datastore.id],
  });
  agentId = agent.id;
});

describe("an offline answer to a visitor of the public chat", () => {
  test("quotes the knowledge without the operator's hint, as JSON and streamed", async ({
    app,
  }) => {
    const json = await publicChat(app, agentId, {
      query: "What are your opening hours?",
      visitorId: "visitor-offline-1",
    });
    expect(json.statusCode).toBe(200);
    const answer = json.json().answer as string;
    expect(answer).toMatch(/^I can only quote the knowledge base/);
    expect(answer).toContain("We are open Monday to Friday, 9:00 to 17:00.");
    expect(answer).not.toMatch(OPERATOR_HINT);

    const base = await app.listen("api");
    const streamed = summarize(
      await postSse(
        `${base}/api/public/agents/${agentId}/chat`,
        {},
        { query: "Opening hours?", visitorId: "visitor-offline-2", streaming: true },
      ),
    );
    expect(streamed.answer).toContain("Monday to Friday");
    expect(streamed.answer).not.toMatch(OPERATOR_HINT);
    expect(streamed.response?.answer).toBe(streamed.answer);
  });

  test("says plainly that only the knowledge base can be quoted when nothing matches", async ({
    app,
  }) => {
    const response = await publicChat(app, agentId, {
      query: "Do you sell bicycles?",
      visitorId: "visitor-offline-3",
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().answer).toBe(
      "I can only quote the knowledge base, and none of the knowledge found matches your question.",
    );
  });
});

describe("an offline answer to a keyed caller", () => {
  test("keeps the hint that tells the operator how to get written answers", async ({ api }) => {
    const response = await api.agents.query(agentId, { query: "What are your opening hours?" });
    expect(response.status).toBe(200);
    expect(response.body.answer).toMatch(/^No language model is configured/);
    expect(response.body.answer).toContain(
      "To get written answers, set OPENAI_API_KEY, or LLM_BASE_URL",
    );
  });
});
