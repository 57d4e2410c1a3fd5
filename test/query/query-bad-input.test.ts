import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHANNELS } from "../../src/domain/conversations/conversation-turns.ts";
import {
  createAgent,
  createFundedOrganization,
  type QueryTestApp,
  query,
  startQueryTestApp,
} from "../agents/agent-helpers.ts";
import type { TestOrganization } from "../harness/app.ts";

let t: QueryTestApp;
let org: TestOrganization;
let agentId: string;
beforeAll(async () => {
  t = await startQueryTestApp();
  org = await createFundedOrganization(t.app);
  agentId = (await createAgent(t.app, org)).id;
});
afterAll(() => t.close());

describe("query bodies refused with 400 before any model call", () => {
  it("lists the valid channels when the channel is unknown", async () => {
    const response = await query(t.app, org, agentId, { query: "hi", channel: "fax" });
    expect(response.statusCode).toBe(400);
    const body = response.json();
    expect(body.type).toBe("INVALID_REQUEST");
    expect(body.error).toBe(`Invalid request: body.channel must be one of: ${CHANNELS.join(", ")}`);
    for (const channel of CHANNELS) expect(body.error).toContain(channel);
  });

  it("accepts every channel of the spec", async () => {
    for (const channel of CHANNELS) {
      const body: Record<string, unknown> = { query: "hi", channel };
      if (channel === "crmchatsappai") body.conversationId = "crmchatsappai_acct1_cust1";
      const response = await query(t.app, org, agentId, body);
      expect(response.statusCode, channel).toBe(200);
    }
  });

  it.each([
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
  ])("%s", async (_label, payload, path) => {
    t.fake.requests.length = 0;
    const response = await query(t.app, org, agentId, payload);
    expect(response.statusCode).toBe(400);
    const body = response.json();
    expect(body.type).toBe("INVALID_REQUEST");
    expect(body.details.map((detail: { path: string }) => detail.path)).toContain(path);
    expect(t.fake.requests).toHaveLength(0);
  });

  it("refuses a crmchatsappai conversation id that does not follow the pattern", async () => {
    const response = await query(t.app, org, agentId, {
      query: "hi",
      channel: "crmchatsappai",
      conversationId: "just-an-id",
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().details).toEqual([
      {
        path: "body.conversationId",
        message: "does not follow crmchatsappai_{accountId}_{customerId}",
      },
    ]);
  });

  it("refuses a body that is not JSON or not an object", async () => {
    for (const payload of ["{query:", "[]", "null", '"hi"']) {
      const response = await t.app.api.inject({
        method: "POST",
        url: `/api/agents/${agentId}/query`,
        headers: { ...org.auth, "content-type": "application/json" },
        payload,
      });
      expect(response.statusCode, payload).toBe(400);
      expect(response.json().type).toBe("INVALID_REQUEST");
    }
  });

  it("refuses text PostgreSQL cannot store (an unpaired surrogate), and stores paired ones", async () => {
    const send = (payload: string) =>
      t.app.api.inject({
        method: "POST",
        url: `/api/agents/${agentId}/query`,
        headers: { ...org.auth, "content-type": "application/json" },
        payload,
      });
    for (const payload of [
      '{"query":"where \\ud800 is it"}',
      '{"query":"hi","context":"x \\udc00"}',
      '{"query":"hi","metadata":{"\\ud83e":"key"}}',
    ]) {
      const response = await send(payload);
      expect(response.statusCode, payload).toBe(400);
      expect(response.json()).toMatchObject({
        type: "INVALID_REQUEST",
        error: expect.stringContaining("unpaired surrogates"),
      });
    }
    const unicorn = await send('{"query":"a \\ud83e\\udd84 please","context":"\\ud83e\\udd84"}');
    expect(unicorn.statusCode).toBe(200);
  });

  it("answers 404 for an unknown agent", async () => {
    const response = await query(t.app, org, "no-such-agent", { query: "hi" });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ type: "NOT_FOUND", error: "Agent not found" });
  });
});
