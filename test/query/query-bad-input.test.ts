import { describe, expect } from "vitest";
import { CHANNELS } from "../../src/domain/conversations/conversation-turns.ts";
import { unchecked } from "../harness/client.ts";
import { appTest } from "../harness/fixtures.ts";

const test = appTest();

describe("query bodies refused with 400 before any model call", () => {
  test("lists the valid channels when the channel is unknown", async ({
    api,
    agent: { id: agentId },
  }) => {
    const response = await api.agents.query(agentId, unchecked({ query: "hi", channel: "fax" }));
    expect(response.status).toBe(400);
    const body = response.error;
    expect(body.type).toBe("INVALID_REQUEST");
    expect(body.error).toBe(`Invalid request: body.channel must be one of: ${CHANNELS.join(", ")}`);
    for (const channel of CHANNELS) expect(body.error).toContain(channel);
  });

  test("accepts every channel of the spec", async ({ api, agent: { id: agentId } }) => {
    for (const channel of CHANNELS) {
      const body = {
        query: "hi",
        channel,
        ...(channel === "crmchatsappai" && { conversationId: "crmchatsappai_acct1_cust1" }),
      };
      const response = await api.agents.query(agentId, body);
      expect(response.status, channel).toBe(200);
    }
  });

  test.for([
    ["no query", {}, "body.query"],
    ["empty query", { query: "" }, "body.query"],
    ["blank query", { query: "  \n " }, "body.query"],
    ["query not a string", { query: 42 }, "body.query"],
    ["streaming not a boolean", { query: "hi", streaming: "yes" }, "body.streaming"],
    ["conversation id with spaces", { query: "hi", conversationId: "a b" }, "body.conversationId"],
    [
      "conversation id too long",
      { query: "hi", conversationId: "x".repeat(201) },
      "body.conversationId",
    ],
    ["visitor id empty", { query: "hi", visitorId: "" }, "body.visitorId"],
    ["context not a string", { query: "hi", context: { a: 1 } }, "body.context"],
    ["unknown prompt type", { query: "hi", promptType: "poem" }, "body.promptType"],
    ["attachments not an array", { query: "hi", attachments: "http://x" }, "body.attachments"],
    ["attachment without url", { query: "hi", attachments: [{}] }, "body.attachments.0.url"],
    [
      "attachment not http",
      { query: "hi", attachments: [{ url: "file:///etc/passwd" }] },
      "body.attachments.0.url",
    ],
    [
      "too many attachments",
      { query: "hi", attachments: Array(11).fill({ url: "http://x.example/a" }) },
      "body.attachments",
    ],
    [
      "contact email malformed",
      { query: "hi", contact: { email: "not-an-email" } },
      "body.contact.email",
    ],
    ["contact not an object", { query: "hi", contact: "ada" }, "body.contact"],
    ["query too long", { query: "x".repeat(100_001) }, "body.query"],
  ] as const)("%s", async ([, payload, path], { api, fake, agent }) => {
    const response = await api.agents.query(agent.id, unchecked(payload));
    expect(response.status).toBe(400);
    const body = response.error;
    expect(body.type).toBe("INVALID_REQUEST");
    expect(body.details?.map((detail) => detail.path)).toContain(path);
    expect(fake.requests).toHaveLength(0);
  });

  test("refuses a crmchatsappai conversation id that does not follow the pattern", async ({
    api,
    agent: { id: agentId },
  }) => {
    const response = await api.agents.query(agentId, {
      query: "hi",
      channel: "crmchatsappai",
      conversationId: "just-an-id",
    });
    expect(response.status).toBe(400);
    expect(response.error.details).toEqual([
      {
        path: "body.conversationId",
        message: "does not follow crmchatsappai_{accountId}_{customerId}",
      },
    ]);
  });

  test("refuses a body that is not JSON or not an object", async ({
    api,
    agent: { id: agentId },
  }) => {
    for (const payload of ["{query:", "[]", "null", '"hi"']) {
      const response = await api.request({
        method: "POST",
        url: `/api/agents/${agentId}/query`,
        headers: { "content-type": "application/json" },
        payload,
      });
      expect(response.status, payload).toBe(400);
      expect(response.body.type).toBe("INVALID_REQUEST");
    }
  });

  test("refuses text PostgreSQL cannot store (an unpaired surrogate), and stores paired ones", async ({
    api,
    agent: { id: agentId },
  }) => {
    const send = (payload: string) =>
      api.request({
        method: "POST",
        url: `/api/agents/${agentId}/query`,
        headers: { "content-type": "application/json" },
        payload,
      });
    for (const payload of [
      '{"query":"where \\ud800 is it"}',
      '{"query":"hi","context":"x \\udc00"}',
      '{"query":"hi","metadata":{"\\ud83e":"key"}}',
    ]) {
      const response = await send(payload);
      expect(response.status, payload).toBe(400);
      expect(response.body).toMatchObject({
        type: "INVALID_REQUEST",
        error: expect.stringContaining("unpaired surrogates"),
      });
    }
    const unicorn = await send('{"query":"a \\ud83e\\udd84 please","context":"\\ud83e\\udd84"}');
    expect(unicorn.status).toBe(200);
  });

  test("answers 404 for an unknown agent", async ({ api }) => {
    const response = await api.agents.query("no-such-agent", { query: "hi" });
    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({ type: "NOT_FOUND", error: "Agent not found" });
  });
});
