import { describe, expect } from "vitest";
import { annotationTest } from "./seed.ts";

const test = annotationTest({ orgName: "Reviewers", ownerEmail: "Reviewer@Example.com" });

let agentId: string;

test.beforeAll(async ({ org, seed }) => {
  agentId = await seed.agent(org, { name: "Ada", iconUrl: "https://cdn.example/ada.png" });
});

describe("POST /api/annotations (create)", () => {
  test("creates a pending annotation resolved from the message, with its tags", async ({
    org,
    seed,
    client,
  }) => {
    const exchange = await seed.exchange(org, agentId);
    const urgent = await client.createTag("urgent", org);
    const tone = await client.createTag("tone", org);
    const response = await client.create(
      {
        messageId: exchange.agentMessageId,
        sentiment: "bad",
        comment: "  Wrong refund policy  ",
        tagIds: [urgent.id, tone.id, urgent.id],
      },
      org,
    );
    expect(response.status).toBe(200);
    const body = response.body;
    expect(body).toEqual({
      id: expect.any(String),
      messageId: exchange.agentMessageId,
      conversationId: exchange.conversationId,
      agentId,
      organizationId: org.id,
      comment: "Wrong refund policy",
      sentiment: "bad",
      status: "pending",
      createdById: org.userId,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      createdBy: { email: "reviewer@example.com" },
      tags: [{ tag: { id: tone.id, name: "tone" } }, { tag: { id: urgent.id, name: "urgent" } }],
    });
    expect(Number.isNaN(Date.parse(body.createdAt))).toBe(false);

    const stored = await seed.storedAnnotation(body.id);
    expect(stored).toMatchObject({
      messageId: exchange.agentMessageId,
      organizationId: org.id,
      status: "pending",
      createdById: org.userId,
    });
  });

  test("upserts by messageId: one annotation per message, status kept, comment and sentiment updated", async ({
    org,
    seed,
    client,
  }) => {
    const exchange = await seed.exchange(org, agentId);
    const tag = await client.createTag("kept-then-dropped", org);
    const first = (
      await client.create(
        {
          messageId: exchange.agentMessageId,
          sentiment: "good",
          comment: "Nice",
          tagIds: [tag.id],
        },
        org,
      )
    ).body;
    const patched = await client.patch(first.id, { status: "completed" }, org);
    expect(patched.status).toBe(200);

    const second = await client.create(
      { messageId: exchange.agentMessageId, sentiment: "bad", comment: "On second thought, no" },
      org,
    );
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({
      id: first.id,
      status: "completed",
      sentiment: "bad",
      comment: "On second thought, no",
      tags: [],
    });
    expect(Date.parse(second.body.updatedAt)).toBeGreaterThan(Date.parse(first.updatedAt));
    expect(second.body.createdAt).toBe(first.createdAt);

    const listed = await client.list({ messageId: exchange.agentMessageId }, org);
    expect(listed.body).toHaveLength(1);
  });

  test("keeps one annotation when the same message is annotated concurrently", async ({
    org,
    seed,
    client,
  }) => {
    const exchange = await seed.exchange(org, agentId);
    const tags = await Promise.all(
      ["c1", "c2", "c3", "c4"].map((name) => client.createTag(`concurrent-${name}`, org)),
    );
    const responses = await Promise.all(
      tags.map((tag, index) =>
        client.create(
          {
            messageId: exchange.agentMessageId,
            sentiment: index % 2 ? "good" : "bad",
            comment: `writer ${index}`,
            tagIds: [tag.id],
          },
          org,
        ),
      ),
    );
    expect(responses.map((response) => response.status)).toEqual([200, 200, 200, 200]);
    expect(new Set(responses.map((response) => response.body.id)).size).toBe(1);

    const stored = (await client.list({ messageId: exchange.agentMessageId }, org)).body[0]!;
    const writer = Number(/writer (\d)/.exec(stored.comment)![1]);
    // The last writer wins as a whole: its comment comes with its tags, never a mix.
    expect(stored.tags).toEqual([{ tag: { id: tags[writer]!.id, name: tags[writer]!.name } }]);
  });

  test("replaces tags when tagIds is present and removes them all when it is empty or null", async ({
    org,
    seed,
    client,
  }) => {
    const exchange = await seed.exchange(org, agentId);
    const [a, b, c] = await Promise.all(
      ["alpha", "beta", "gamma"].map((name) => client.createTag(name, org)),
    );
    const base = { messageId: exchange.agentMessageId, sentiment: "good", comment: "ok" };
    const tagsOf = async (tagIds: unknown) =>
      (await client.create({ ...base, tagIds }, org)).body.tags.map(
        (entry: { tag: { name: string } }) => entry.tag.name,
      );

    expect(await tagsOf([a!.id, b!.id])).toEqual(["alpha", "beta"]);
    expect(await tagsOf([c!.id])).toEqual(["gamma"]);
    expect(await tagsOf([])).toEqual([]);
    expect(await tagsOf([a!.id])).toEqual(["alpha"]);
    expect(await tagsOf(null)).toEqual([]);
  });
});

describe("GET /api/annotations/{id}", () => {
  test("returns the annotation with its message and the whole conversation in order", async ({
    org,
    seed,
    client,
  }) => {
    const contactAgent = await seed.agent(org, { name: "Grace", iconUrl: null });
    const first = await seed.exchange(org, contactAgent, {
      contact: { email: "customer@example.com", phoneNumber: "+15550100" },
    });
    const { conversationId, contactId } = first;
    expect(contactId).toEqual(expect.any(String));
    const second = await seed.exchange(org, contactAgent, { conversationId });
    const otherAnnotation = (
      await client.create(
        { messageId: first.agentMessageId, sentiment: "good", comment: "fine" },
        org,
      )
    ).body;
    const created = (
      await client.create(
        { messageId: second.agentMessageId, sentiment: "bad", comment: "too long" },
        org,
      )
    ).body;

    const response = await client.get(created.id, org);
    expect(response.status).toBe(200);
    const body = response.body;
    const contact = { id: contactId, phoneNumber: "+15550100", email: "customer@example.com" };
    const agent = { id: contactAgent, name: "Grace", iconUrl: null };
    expect(body).toMatchObject({
      id: created.id,
      messageId: second.agentMessageId,
      createdBy: { email: "reviewer@example.com" },
      tags: [],
      message: {
        id: second.agentMessageId,
        content: expect.stringMatching(/\S/),
        agent,
        contact,
        annotation: { id: created.id, sentiment: "bad" },
      },
      conversation: { id: conversationId, agentId: contactAgent, contact },
    });
    expect(
      body.conversation.messages.map((message: { id: string; from: string }) => [
        message.id,
        message.from,
      ]),
    ).toEqual([
      [first.humanMessageId, "human"],
      [first.agentMessageId, "agent"],
      [second.humanMessageId, "human"],
      [second.agentMessageId, "agent"],
    ]);
    expect(body.conversation.messages[0]).toMatchObject({ agent: null, contact, annotation: null });
    expect(body.conversation.messages[1]).toMatchObject({ agent, contact });
    expect(body.conversation.messages[1]!.annotation).toEqual({
      id: otherAnnotation.id,
      sentiment: "good",
    });
  });

  test("shows null agent and contact when the message has none", async ({ org, seed, client }) => {
    const exchange = await seed.exchange(org, agentId);
    const created = (
      await client.create(
        { messageId: exchange.agentMessageId, sentiment: "good", comment: "ok" },
        org,
      )
    ).body;
    const body = (await client.get(created.id, org)).body;
    expect(body.message.agent).toEqual({
      id: agentId,
      name: "Ada",
      iconUrl: "https://cdn.example/ada.png",
    });
    expect(body.message.contact).toBeNull();
    expect(body.conversation.contact).toBeNull();
  });
});

describe("PATCH and DELETE /api/annotations/{id}", () => {
  test("changes the status, moves updatedAt and returns createdBy and tags", async ({
    org,
    seed,
    client,
  }) => {
    const exchange = await seed.exchange(org, agentId);
    const tag = await client.createTag("patched", org);
    const created = (
      await client.create(
        { messageId: exchange.agentMessageId, sentiment: "good", comment: "ok", tagIds: [tag.id] },
        org,
      )
    ).body;
    const response = await client.patch(created.id, { status: "completed" }, org);
    expect(response.status).toBe(200);
    const body = response.body;
    expect(body).toMatchObject({
      id: created.id,
      status: "completed",
      comment: "ok",
      createdBy: { email: "reviewer@example.com" },
      tags: [{ tag: { id: tag.id, name: "patched" } }],
    });
    expect(Date.parse(body.updatedAt)).toBeGreaterThan(Date.parse(created.updatedAt));
    expect((await seed.storedAnnotation(created.id))?.status).toBe("completed");

    const back = await client.patch(created.id, { status: "pending" }, org);
    expect(back.body.status).toBe("pending");
    expect(Date.parse(back.body.updatedAt)).toBeGreaterThan(Date.parse(body.updatedAt));
  });

  test("deletes and then answers 404", async ({ org, seed, client }) => {
    const exchange = await seed.exchange(org, agentId);
    const created = (
      await client.create(
        { messageId: exchange.agentMessageId, sentiment: "good", comment: "ok" },
        org,
      )
    ).body;
    const response = await client.remove(created.id, org);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true });
    expect(await seed.storedAnnotation(created.id)).toBeNull();
    expect((await client.get(created.id, org)).status).toBe(404);
    expect((await client.remove(created.id, org)).status).toBe(404);

    const again = await client.create(
      { messageId: exchange.agentMessageId, sentiment: "bad", comment: "new one" },
      org,
    );
    expect(again.status).toBe(200);
    expect(again.body.id).not.toBe(created.id);
    expect(again.body.status).toBe("pending");
  });
});

describe("accepted statuses (extension)", () => {
  test("defaults to pending and completed, and can be replaced per organization", async ({
    app,
    org,
    seed,
    client,
  }) => {
    const other = await app.createOrganization("Statuses");
    const otherAgent = await seed.agent(other);
    const exchange = await seed.exchange(other, otherAgent);
    const created = (
      await client.create(
        { messageId: exchange.agentMessageId, sentiment: "good", comment: "ok" },
        other,
      )
    ).body;

    const initial = await app.client(other.auth).annotations.statuses();
    expect(initial.body).toEqual({ statuses: ["pending", "completed"] });
    expect((await client.patch(created.id, { status: "escalated" }, other)).status).toBe(400);

    const replaced = await app
      .client(other.auth)
      .annotations.setStatuses({ statuses: ["pending", "escalated", "escalated", "done"] });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toEqual({ statuses: ["pending", "escalated", "done"] });

    expect((await client.patch(created.id, { status: "escalated" }, other)).body.status).toBe(
      "escalated",
    );
    const refused = await client.patch(created.id, { status: "completed" }, other);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ type: "INVALID_REQUEST" });
    expect(refused.error.error).toContain("escalated");

    // Another organization keeps the defaults.
    const mine = await seed.exchange(org, agentId);
    const minesAnnotation = (
      await client.create({ messageId: mine.agentMessageId, sentiment: "good", comment: "ok" }, org)
    ).body;
    expect((await client.patch(minesAnnotation.id, { status: "escalated" }, org)).status).toBe(400);
    expect((await client.patch(minesAnnotation.id, { status: "completed" }, org)).status).toBe(200);
  });

  test("refuses a list without pending, since new annotations start there", async ({ api }) => {
    const response = await api.annotations.setStatuses({ statuses: ["completed"] });
    expect(response.status).toBe(400);
    const after = await api.annotations.statuses();
    expect(after.body).toEqual({ statuses: ["pending", "completed"] });
  });
});

describe("annotation tags (extension)", () => {
  test("creates and lists the organization's tags by name; duplicates in any case are 400", async ({
    app,
    org,
    client,
  }) => {
    const tagOrg = await app.createOrganization("Tags");
    const created = await app.client(tagOrg.auth).annotationTags.create({ name: "  Billing " });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      name: "Billing",
      createdAt: expect.any(String),
    });
    await client.createTag("accuracy", tagOrg);

    for (const name of ["Billing", "billing", " BILLING "]) {
      const duplicate = await app.client(tagOrg.auth).annotationTags.create({ name });
      expect(duplicate.status).toBe(400);
      expect(duplicate.body).toMatchObject({ type: "INVALID_REQUEST" });
    }

    // Same name in another organization is fine.
    expect((await client.createTag("Billing", org)).name).toBe("Billing");

    const listed = await app.client(tagOrg.auth).annotationTags.list();
    expect(listed.status).toBe(200);
    expect(listed.body.map((tag: { name: string }) => tag.name)).toEqual(["accuracy", "Billing"]);
  });

  test("keeps one tag when the same name is created concurrently", async ({ app }) => {
    const tagOrg = await app.createOrganization("Racing tags");
    const responses = await Promise.all(
      Array.from({ length: 6 }, () =>
        app.client(tagOrg.auth).annotationTags.create({ name: "race" }),
      ),
    );
    expect(responses.map((response) => response.status).sort()).toEqual([
      201, 400, 400, 400, 400, 400,
    ]);
  });
});

describe("OpenAPI document", () => {
  test("lists every annotation endpoint under annotations and marks tags and statuses as extensions", async ({
    app,
  }) => {
    const response = await app.client().request({ method: "GET", url: "/api/openapi.json" });
    expect(response.status).toBe(200);
    const paths = response.body.paths;
    const operations: Array<[string, string, boolean]> = [
      ["/api/annotations", "post", false],
      ["/api/annotations", "get", false],
      ["/api/annotations/{id}", "get", false],
      ["/api/annotations/{id}", "patch", false],
      ["/api/annotations/{id}", "delete", false],
      ["/api/annotation-tags", "get", true],
      ["/api/annotation-tags", "post", true],
      ["/api/annotation-statuses", "get", true],
      ["/api/annotation-statuses", "put", true],
    ];
    for (const [path, method, extension] of operations) {
      const operation = paths[path][method];
      expect(operation.tags, `${method} ${path}`).toEqual(["annotations"]);
      expect(operation["x-extension"] === true, `${method} ${path}`).toBe(extension);
    }
  });
});
