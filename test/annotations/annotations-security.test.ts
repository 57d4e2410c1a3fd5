import { describe, expect } from "vitest";
import type { TestOrganization } from "../harness/app.ts";
import { type AnnotationClient, annotationTest, type SeededExchange } from "./seed.ts";

const test = annotationTest({ orgName: "A", ownerEmail: "a@example.com" });

let orgB: TestOrganization;
let publicA: SeededExchange;
let privateA: SeededExchange;
let publicB: SeededExchange;

const INVALID_KEY = { authorization: "Bearer adk_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA" };

const unauthorizedBody = {
  error: expect.any(String),
  type: "UNAUTHORIZED",
  requestId: expect.any(String),
};

test.beforeAll(async ({ app, org: orgA, seed }) => {
  orgB = await app.createOrganization("B", { ownerEmail: "b@example.com" });
  publicA = await seed.exchange(orgA, await seed.agent(orgA, { visibility: "public" }));
  privateA = await seed.exchange(orgA, await seed.agent(orgA, { visibility: "private" }));
  publicB = await seed.exchange(orgB, await seed.agent(orgB, { visibility: "public" }));
});

const review = (messageId: string, extra: Record<string, unknown> = {}) => ({
  messageId,
  sentiment: "good",
  comment: "Reviewed",
  ...extra,
});

describe("create without credentials", () => {
  test("works for a public agent's message and records no author", async ({
    org: orgA,
    seed,
    client,
  }) => {
    const message = await seed.exchange(orgA, publicA.agentId);
    const response = await client.create(review(message.agentMessageId));
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      organizationId: orgA.id,
      agentId: publicA.agentId,
      createdById: null,
      createdBy: null,
      status: "pending",
    });
  });

  test("is refused with 401 for a private agent's message, and nothing is stored", async ({
    org: orgA,
    client,
  }) => {
    const response = await client.create(review(privateA.agentMessageId));
    expect(response.status).toBe(401);
    expect(response.body).toEqual(unauthorizedBody);
    const listed = await client.list({ messageId: privateA.agentMessageId }, orgA);
    expect(listed.body).toEqual([]);
  });

  test("answers 404 for an unknown message", async ({ client }) => {
    const response = await client.create(review("does-not-exist"));
    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({ type: "NOT_FOUND" });
  });

  test("checks access before the message kind: a private human message is 401, a public one 400", async ({
    client,
  }) => {
    expect((await client.create(review(privateA.humanMessageId))).status).toBe(401);
    expect((await client.create(review(publicA.humanMessageId))).status).toBe(400);
  });

  test.for([
    ["an invalid key", INVALID_KEY],
    ["a key without its scheme", { authorization: "adk_nothing" }],
    ["basic credentials", { authorization: "Basic dXNlcjpwYXNz" }],
    ["an empty header", { authorization: "" }],
  ] as const)(
    "refuses %s instead of falling back to anonymous",
    async ([_label, credentials], { client }) => {
      const response = await client.create(review(publicA.agentMessageId), credentials);
      expect(response.status).toBe(401);
      expect(response.body).toEqual(unauthorizedBody);
    },
  );

  test("an anonymous upsert records that nobody known last updated it", async ({
    org: orgA,
    seed,
    client,
  }) => {
    const message = await seed.exchange(orgA, publicA.agentId);
    const keyed = await client.create(review(message.agentMessageId), orgA);
    expect(keyed.body.createdById).toBe(orgA.userId);
    const anonymous = await client.create(review(message.agentMessageId, { comment: "again" }));
    expect(anonymous.body).toMatchObject({ id: keyed.body.id, createdById: null });
  });
});

describe("create with a key", () => {
  test("works on its own organization's private agent", async ({ org: orgA, client }) => {
    const response = await client.create(review(privateA.agentMessageId), orgA);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ organizationId: orgA.id, createdById: orgA.userId });
  });

  test("is 401 on another organization's message, public or private, and changes nothing", async ({
    org: orgA,
    seed,
    client,
  }) => {
    const before = (await client.create(review(privateA.agentMessageId), orgA)).body;
    for (const messageId of [privateA.agentMessageId, publicA.agentMessageId]) {
      const response = await client.create(review(messageId, { comment: "intruder" }), orgB);
      expect(response.status).toBe(401);
      expect(response.body).toEqual(unauthorizedBody);
    }
    const after = await seed.storedAnnotation(before.id);
    expect(after?.comment).toBe("Reviewed");
    expect(after?.createdById).toBe(orgA.userId);
  });

  test("refuses tag ids of another organization with 400 and keeps the old tags", async ({
    org: orgA,
    seed,
    client,
  }) => {
    const ownTag = await client.createTag("own", orgA);
    const foreignTag = await client.createTag("foreign", orgB);
    const message = await seed.exchange(orgA, privateA.agentId);
    const created = await client.create(
      review(message.agentMessageId, { tagIds: [ownTag.id] }),
      orgA,
    );
    expect(created.status).toBe(200);

    const refused = await client.create(
      review(message.agentMessageId, { tagIds: [ownTag.id, foreignTag.id], comment: "changed" }),
      orgA,
    );
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      type: "INVALID_REQUEST",
      details: [{ path: "body.tagIds", message: expect.stringContaining(foreignTag.id) }],
    });
    const stored = (await client.get(created.body.id, orgA)).body;
    expect(stored.comment).toBe("Reviewed");
    expect(stored.tags).toEqual([{ tag: { id: ownTag.id, name: "own" } }]);
  });

  test("an anonymous reviewer of a public agent can only use that organization's tags", async ({
    org: orgA,
    seed,
    client,
  }) => {
    const ownTag = await client.createTag("public-own", orgA);
    const foreignTag = await client.createTag("public-foreign", orgB);
    const message = await seed.exchange(orgA, publicA.agentId);
    const ok = await client.create(review(message.agentMessageId, { tagIds: [ownTag.id] }));
    expect(ok.status).toBe(200);
    expect(ok.body.tags).toEqual([{ tag: { id: ownTag.id, name: "public-own" } }]);
    const refused = await client.create(
      review(message.agentMessageId, { tagIds: [foreignTag.id] }),
    );
    expect(refused.status).toBe(400);
  });
});

describe("list authentication", () => {
  let annotationOfPublicA: string;
  let annotationOfPrivateA: string;
  let annotationOfPublicB: string;
  test.beforeAll(async ({ org: orgA, client }) => {
    annotationOfPublicA = (await client.create(review(publicA.agentMessageId), orgA)).body.id;
    annotationOfPrivateA = (await client.create(review(privateA.agentMessageId), orgA)).body.id;
    annotationOfPublicB = (await client.create(review(publicB.agentMessageId), orgB)).body.id;
  });

  const idsOf = (body: Array<{ id: string }>) => body.map((item) => item.id);

  test("without credentials needs an agentId or messageId of a public agent", async ({
    org: orgA,
    client,
  }) => {
    const byAgent = await client.list({ agentId: publicA.agentId });
    expect(byAgent.status).toBe(200);
    expect(idsOf(byAgent.body)).toContain(annotationOfPublicA);
    expect(
      byAgent.body.every((item: { agentId: string }) => item.agentId === publicA.agentId),
    ).toBe(true);

    const byMessage = await client.list({ messageId: publicA.agentMessageId });
    expect(idsOf(byMessage.body)).toEqual([annotationOfPublicA]);
    // The reviewer's email is staff data: anonymous visitors see that a user wrote it, not who.
    expect(byMessage.body[0]).toMatchObject({
      createdById: orgA.userId,
      createdBy: { email: null },
    });
    const keyed = await client.list({ messageId: publicA.agentMessageId }, orgA);
    expect(keyed.body[0]!.createdBy).toEqual({ email: "a@example.com" });
  });

  test.for([
    ["no filter", {}],
    ["a private agent", "privateAgent"],
    ["a private message", "privateMessage"],
    ["an unknown agent", { agentId: "nope" }],
    ["an unknown message", { messageId: "nope" }],
    ["only a conversation", "conversation"],
    ["a public agent with a private message", "mixed"],
    ["only a status", { status: "pending" }],
  ] as const)("without credentials and %s is 401", async ([_label, query], { client }) => {
    const resolved =
      query === "privateAgent"
        ? { agentId: privateA.agentId }
        : query === "privateMessage"
          ? { messageId: privateA.agentMessageId }
          : query === "conversation"
            ? { conversationId: publicA.conversationId }
            : query === "mixed"
              ? { agentId: publicA.agentId, messageId: privateA.agentMessageId }
              : (query as Record<string, string>);
    const response = await client.list(resolved);
    expect(response.status).toBe(401);
    expect(response.body).toEqual(unauthorizedBody);
  });

  test("with a key lists only its organization", async ({ org: orgA, client }) => {
    const ids = idsOf((await client.list({}, orgA)).body);
    expect(ids).toEqual(expect.arrayContaining([annotationOfPublicA, annotationOfPrivateA]));
    expect(ids).not.toContain(annotationOfPublicB);
    const idsOfB = idsOf((await client.list({}, orgB)).body);
    expect(idsOfB).toContain(annotationOfPublicB);
    expect(idsOfB).not.toContain(annotationOfPublicA);
  });

  test("with a key, a filter naming another organization's agent or message is 401", async ({
    client,
  }) => {
    const queries: Array<Record<string, string>> = [
      { agentId: publicA.agentId },
      { agentId: privateA.agentId },
      { messageId: publicA.agentMessageId },
    ];
    for (const query of queries) {
      const response = await client.list(query, orgB);
      expect(response.status).toBe(401);
    }
  });

  test("with a key, another organization's conversation id matches nothing, as an unknown one", async ({
    org: orgA,
    client,
  }) => {
    const foreign = await client.list({ conversationId: privateA.conversationId }, orgB);
    const unknown = await client.list({ conversationId: "unknown-conversation" }, orgB);
    expect(foreign.status).toBe(200);
    expect(foreign.body).toEqual([]);
    expect(foreign.text).toBe(unknown.text);
    const own = await client.list({ conversationId: privateA.conversationId }, orgA);
    expect(idsOf(own.body)).toEqual([annotationOfPrivateA]);
  });

  test("with a key, an unknown filter id simply matches nothing", async ({ org: orgA, client }) => {
    const response = await client.list({ agentId: "unknown-agent" }, orgA);
    expect(response.status).toBe(200);
    expect(response.body).toEqual([]);
  });

  test("an invalid key is 401 even with a public agent filter", async ({ client }) => {
    expect((await client.list({ agentId: publicA.agentId }, INVALID_KEY)).status).toBe(401);
  });

  test("a cursor of another organization is refused", async ({ org: orgA, client }) => {
    const response = await client.list({ cursor: annotationOfPublicB }, orgA);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ type: "INVALID_REQUEST" });
  });
});

describe("get, update and delete need a key of the owning organization", () => {
  let annotationId: string;
  test.beforeAll(async ({ org: orgA, seed, client }) => {
    const message = await seed.exchange(orgA, publicA.agentId);
    annotationId = (await client.create(review(message.agentMessageId), orgA)).body.id;
  });

  const attempts = (client: AnnotationClient) => [
    client.get(annotationId),
    client.patch(annotationId, { status: "completed" }),
    client.remove(annotationId),
  ];

  test("without credentials: 401, even for a public agent", async ({ client }) => {
    for (const response of await Promise.all(attempts(client))) {
      expect(response.status).toBe(401);
      expect(response.body).toEqual(unauthorizedBody);
    }
  });

  test("with an invalid key: 401", async ({ client }) => {
    const responses = await Promise.all([
      client.get(annotationId, INVALID_KEY),
      client.patch(annotationId, { status: "completed" }, INVALID_KEY),
      client.remove(annotationId, INVALID_KEY),
    ]);
    expect(responses.map((response) => response.status)).toEqual([401, 401, 401]);
  });

  test("with another organization's key: 401 and the annotation is untouched", async ({
    org: orgA,
    seed,
    client,
  }) => {
    const responses = await Promise.all([
      client.get(annotationId, orgB),
      client.patch(annotationId, { status: "completed" }, orgB),
      client.remove(annotationId, orgB),
    ]);
    expect(responses.map((response) => response.status)).toEqual([401, 401, 401]);
    for (const response of responses) expect(response.body).toEqual(unauthorizedBody);
    const stored = await seed.storedAnnotation(annotationId);
    expect(stored?.status).toBe("pending");
    expect((await client.get(annotationId, orgA)).status).toBe(200);
  });

  test("absent: 404 with a key, 401 without (authentication comes first)", async ({
    org: orgA,
    client,
  }) => {
    expect((await client.get("missing", orgA)).status).toBe(404);
    expect((await client.patch("missing", { status: "completed" }, orgA)).status).toBe(404);
    expect((await client.remove("missing", orgA)).status).toBe(404);
    expect((await client.get("missing")).status).toBe(401);
    expect((await client.patch("missing", {})).status).toBe(401);
  });
});

describe("tags and statuses are private to their organization", () => {
  test("needs a key and never shows another organization's tags", async ({
    app,
    org: orgA,
    client,
  }) => {
    await client.createTag("only-a", orgA);
    const anonymous = await app.client().annotationTags.list();
    expect(anonymous.status).toBe(401);
    const anonymousCreate = await app.client().annotationTags.create({ name: "x" });
    expect(anonymousCreate.status).toBe(401);
    const ofB = await app.client(orgB.auth).annotationTags.list();
    expect(ofB.body.map((tag: { name: string }) => tag.name)).not.toContain("only-a");
  });

  test("statuses need a key", async ({ app }) => {
    const get = await app.client().annotations.statuses();
    const put = await app.client().annotations.setStatuses({ statuses: ["pending"] });
    expect([get.status, put.status]).toEqual([401, 401]);
  });
});
