import { describe, expect } from "vitest";
import { unchecked } from "../harness/client.ts";
import { annotationTest, type SeededExchange } from "./seed.ts";

const test = annotationTest({ orgName: "Strict" });

let exchange: SeededExchange;
let annotationId: string;

const invalidBody = {
  error: expect.any(String),
  type: "INVALID_REQUEST",
  requestId: expect.any(String),
};

test.beforeAll(async ({ org, seed, client }) => {
  exchange = await seed.exchange(org, await seed.agent(org, { visibility: "public" }));
  const created = await client.create(
    { messageId: exchange.agentMessageId, sentiment: "good", comment: "baseline" },
    org,
  );
  annotationId = created.body.id;
});

describe("POST /api/annotations: the spec's 400s", () => {
  test.for([
    ["an empty comment", { comment: "" }],
    ["a whitespace-only comment", { comment: " \n\t  " }],
    ["a missing comment", { comment: undefined }],
    ["a non-string comment", { comment: 42 }],
    ["a comment with a NUL character", { comment: "bad\u0000byte" }],
    ["a missing sentiment", { sentiment: undefined }],
    ["sentiment neutral", { sentiment: "neutral" }],
    ["sentiment positive", { sentiment: "positive" }],
    ["sentiment in capitals", { sentiment: "GOOD" }],
    ["a missing messageId", { messageId: undefined }],
    ["an empty messageId", { messageId: "" }],
    ["a numeric messageId", { messageId: 7 }],
    ["a huge messageId", { messageId: "m".repeat(5_000) }],
    ["a messageId with a NUL character", { messageId: "m\u0000" }],
    ["tagIds not an array", { tagIds: "tag" }],
    ["tagIds with a non-string", { tagIds: [1] }],
    ["tagIds with an empty id", { tagIds: [""] }],
    ["too many tagIds", { tagIds: Array.from({ length: 101 }, (_, index) => `t${index}`) }],
    ["unknown tag ids", { tagIds: ["no-such-tag"] }],
  ] as const)(
    "%s is 400 INVALID_REQUEST and changes nothing",
    async ([_label, change], { org, seed, client }) => {
      const body: Record<string, unknown> = {
        messageId: exchange.agentMessageId,
        sentiment: "bad",
        comment: "should not be stored",
        ...change,
      };
      const response = await client.create(body, org);
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject(invalidBody);
      const stored = await seed.storedAnnotation(annotationId);
      expect(stored).toMatchObject({ comment: "baseline", sentiment: "good" });
    },
  );

  test("a human message is 400", async ({ org, client }) => {
    const response = await client.create(
      { messageId: exchange.humanMessageId, sentiment: "good", comment: "x" },
      org,
    );
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject(invalidBody);
    expect(response.error.error).toMatch(/agent/i);
  });

  test("an agent message without an agent id is 400 INVALID_REQUEST", async ({
    org,
    seed,
    client,
  }) => {
    const orphan = await seed.orphanAgentMessage(org, exchange.conversationId);
    for (const credentials of [org, undefined]) {
      const response = await client.create(
        { messageId: orphan, sentiment: "good", comment: "x" },
        credentials,
      );
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject(invalidBody);
      expect(response.error.error).toMatch(/agent id/i);
    }
  });

  test("an unknown message is 404 NOT_FOUND", async ({ org, client }) => {
    const response = await client.create(
      { messageId: "ckunknownmessage0000000000", sentiment: "good", comment: "x" },
      org,
    );
    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({ type: "NOT_FOUND" });
  });

  test("malformed bodies are 4xx with the error envelope, never 500", async ({ app, org }) => {
    const attempts = [
      { payload: "{not json", contentType: "application/json" },
      { payload: "[]", contentType: "application/json" },
      { payload: "null", contentType: "application/json" },
      { payload: '"text"', contentType: "application/json" },
      { payload: "", contentType: "application/json" },
      { payload: "messageId=x", contentType: "application/x-www-form-urlencoded" },
      { payload: "plain", contentType: "text/plain" },
      {
        payload: JSON.stringify({ messageId: { $ne: null }, sentiment: ["good"], comment: {} }),
        contentType: "application/json",
      },
      {
        payload: JSON.stringify({
          messageId: exchange.agentMessageId,
          sentiment: "good",
          comment: "x".repeat(20_000),
        }),
        contentType: "application/json",
      },
    ];
    for (const attempt of attempts) {
      const response = await app.client().request({
        method: "POST",
        url: "/api/annotations",
        headers: { ...org.auth, "content-type": attempt.contentType },
        payload: attempt.payload,
      });
      expect(response.status, attempt.payload.slice(0, 40)).toBeGreaterThanOrEqual(400);
      expect(response.status, attempt.payload.slice(0, 40)).toBeLessThan(500);
      expect(response.body).toMatchObject({
        error: expect.any(String),
        type: expect.any(String),
      });
    }
  });
});

describe("GET /api/annotations: filters", () => {
  test("sentiment is case-insensitive", async ({ org, client }) => {
    for (const sentiment of ["good", "GOOD", "Good"]) {
      const response = await client.list({ sentiment }, org);
      expect(response.status).toBe(200);
      expect(response.body.map((item: { id: string }) => item.id)).toContain(annotationId);
    }
    const bad = await client.list({ sentiment: "BAD" }, org);
    expect(bad.body.map((item: { id: string }) => item.id)).not.toContain(annotationId);
  });

  test.for([
    ["an unknown sentiment", "sentiment=neutral"],
    ["an empty sentiment", "sentiment="],
    ["an empty agentId", "agentId="],
    ["a repeated agentId", "agentId=a&agentId=b"],
    ["an empty status", "status="],
    ["an unknown cursor", "cursor=nope"],
    ["a huge cursor", `cursor=${"c".repeat(500)}`],
    ["a NUL in a filter", "agentId=a%00b"],
    ["a NUL in the status", "status=%00"],
  ] as const)("%s is 400", async ([_label, query], { app, org }) => {
    const response = await app.client().request({
      method: "GET",
      url: `/api/annotations?${query}`,
      headers: org.auth,
    });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject(invalidBody);
  });

  test("filters by status, conversation, message and agent", async ({ org, seed, client }) => {
    const second = await seed.exchange(org, exchange.agentId, {
      conversationId: exchange.conversationId,
    });
    const completed = (
      await client.create(
        { messageId: second.agentMessageId, sentiment: "bad", comment: "done" },
        org,
      )
    ).body;
    await client.patch(completed.id, { status: "completed" }, org);
    const idsFor = async (query: Record<string, string>) =>
      (await client.list(query, org)).body.map((item: { id: string }) => item.id);

    expect(await idsFor({ status: "completed" })).toEqual([completed.id]);
    expect(await idsFor({ status: "pending" })).toEqual([annotationId]);
    expect(await idsFor({ conversationId: exchange.conversationId })).toEqual([
      completed.id,
      annotationId,
    ]);
    expect(await idsFor({ messageId: exchange.agentMessageId })).toEqual([annotationId]);
    expect(await idsFor({ agentId: exchange.agentId, sentiment: "bad" })).toEqual([completed.id]);
    expect(await idsFor({ status: "archived" })).toEqual([]);
  });
});

describe("PATCH /api/annotations/{id}: the spec's 400s", () => {
  test.for([
    ["a missing status", {}],
    ["an empty status", { status: "" }],
    ["a whitespace status", { status: "   " }],
    ["a numeric status", { status: 1 }],
    ["a null status", { status: null }],
    ["a status with a NUL character", { status: "completed\u0000" }],
    ["a status the organization does not accept", { status: "archived" }],
  ] as const)("%s is 400 and the status stays", async ([_label, body], { org, seed, client }) => {
    const response = await client.patch(annotationId, body, org);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject(invalidBody);
    expect((await seed.storedAnnotation(annotationId))?.status).toBe("pending");
  });

  test("no body at all is 400", async ({ org, client }) => {
    const response = await client.patch(annotationId, undefined, org);
    expect(response.status).toBe(400);
  });
});

describe("ids in paths and tag names", () => {
  test("odd ids are 404 with the envelope, never 500", async ({ api }) => {
    for (const id of ["' or 1=1 --", "../../etc/passwd", "x".repeat(100)]) {
      const response = await api.annotations.get(encodeURIComponent(id));
      expect(response.status).toBe(404);
      expect(response.body).toMatchObject({ type: "NOT_FOUND", requestId: expect.any(String) });
    }
  });

  test("an id with a NUL character is 400 on every method", async ({ org, client }) => {
    const responses = await Promise.all([
      client.get("a\u0000b", org),
      client.patch("a\u0000b", { status: "completed" }, org),
      client.remove("a\u0000b", org),
    ]);
    for (const response of responses) {
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject(invalidBody);
    }
  });

  test("an id over the router's 200-character limit is refused before the route (414)", async ({
    org,
    client,
  }) => {
    const response = await client.get("x".repeat(201), org);
    expect(response.status).toBe(414);
    expect(response.body).toMatchObject({
      type: "INVALID_REQUEST",
      requestId: expect.any(String),
    });
  });

  test.for([
    ["an empty name", { name: "" }],
    ["a whitespace name", { name: "   " }],
    ["a missing name", {}],
    ["a huge name", { name: "n".repeat(101) }],
    ["a numeric name", { name: 5 }],
    ["a NUL in the name", { name: "a\u0000" }],
  ] as const)("a tag with %s is 400", async ([_label, payload], { api }) => {
    const response = await api.annotationTags.create(unchecked(payload));
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject(invalidBody);
  });

  test.for([
    ["an empty list", { statuses: [] }],
    ["a bad status name", { statuses: ["pending", "has space"] }],
    ["not a list", { statuses: "pending" }],
  ] as const)("accepted statuses with %s are 400", async ([_label, payload], { api }) => {
    const response = await api.annotations.setStatuses(unchecked(payload));
    expect(response.status).toBe(400);
  });
});
