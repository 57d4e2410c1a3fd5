import { createHmac } from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect } from "vitest";
import { users, webhookDeliveries } from "../../src/db/schema/index.ts";
import type { ReceivedRequest, Receiver } from "../fakes/http-receiver.ts";
import { startFakeSmtp } from "../fakes/smtp-server.ts";
import { memberOf } from "../harness/accounts.ts";
import { createAgent, createFundedOrganization } from "../harness/agents.ts";
import type { TestApp, TestOrganization } from "../harness/app.ts";
import {
  eventually,
  FAST_WEBHOOKS,
  posts,
  SIGNING_SECRET,
  type WebhookFixtures,
  webhookTest,
} from "../webhooks/webhook-helpers.ts";

const test = webhookTest()
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from it
  .extend("smtp", { scope: "file" }, async ({}, { onCleanup }) => {
    const smtp = await startFakeSmtp();
    onCleanup(() => smtp.close());
    return smtp;
  });
test.override("env", { scope: "file" }, ({ smtp }) => ({
  ...FAST_WEBHOOKS,
  SMTP_URL: smtp.url,
  MAIL_FROM: "desk@example.com",
}));
test.beforeAll(({ fake }) => {
  fake.script({ text: "We open at nine." });
});

type Subscription = { id: string; url: string; events: string[]; createdAt: string };

const subscribe = (
  app: TestApp,
  headers: Record<string, string>,
  payload: Record<string, unknown>,
) => app.api.inject({ method: "POST", url: "/api/event-subscriptions", headers, payload });

async function subscribed(
  { app, receiver }: Pick<WebhookFixtures, "app" | "receiver">,
  org: TestOrganization,
  path: string,
  events: string[],
) {
  const response = await subscribe(app, org.auth, { url: `${receiver.url}${path}`, events });
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as Subscription;
}

/** The receiver's POSTs to one path, as the events they carry. */
const eventsAt = (receiver: Receiver, path: string) =>
  posts(receiver)
    .filter((request) => request.path === path)
    .map((request) => ({ request, body: JSON.parse(request.body) }));

/** §4's recipe, computed here: sha256=<hex HMAC of "timestamp.body"> with the signing secret. */
function expectSigned(request: ReceivedRequest) {
  const timestamp = String(request.headers["x-service-timestamp"]);
  const expected = createHmac("sha256", SIGNING_SECRET)
    .update(`${timestamp}.${request.body}`)
    .digest("hex");
  expect(request.headers["x-service-signature"]).toBe(`sha256=${expected}`);
  expect(request.headers["content-type"]).toBe("application/json");
  expect(request.headers["x-service-delivery"]).toMatch(/\S+/);
}

const patchConversation = (
  app: TestApp,
  org: TestOrganization,
  id: string,
  payload: Record<string, unknown>,
) =>
  app.api.inject({
    method: "PATCH",
    url: `/api/conversations/${id}`,
    headers: org.auth,
    payload,
  });

describe("event subscriptions", () => {
  test("send each organization's events, signed, to the subscriptions that asked for them", async ({
    app,
    receiver,
  }) => {
    const org = await createFundedOrganization(app, "Subscribed");
    const other = await createFundedOrganization(app, "Elsewhere");
    const { id: agentId } = await createAgent(app, org);
    const everything = await subscribed({ app, receiver }, org, "/all", [
      "conversation.human_requested",
      "conversation.resolved",
      "message.created",
    ]);
    expect(everything).toMatchObject({ url: `${receiver.url}/all`, id: expect.any(String) });
    await subscribed({ app, receiver }, org, "/resolved", ["conversation.resolved"]);
    await subscribed({ app, receiver }, other, "/other", [
      "message.created",
      "conversation.resolved",
    ]);

    const asked = await app.client(org.auth).agents.query(agentId, { query: "When do you open?" });
    expect(asked.status, asked.text).toBe(200);
    const { conversationId } = asked.body;
    const human = await app.client(org.auth).agents.query(agentId, {
      query: "I want to talk to a human",
      conversationId,
    });
    expect(human.status, human.text).toBe(200);
    expect(
      (await patchConversation(app, org, conversationId, { status: "RESOLVED" })).statusCode,
    ).toBe(200);

    await eventually(async () => expect(eventsAt(receiver, "/resolved")).toHaveLength(1));
    await eventually(async () => expect(eventsAt(receiver, "/all")).toHaveLength(6));
    const all = eventsAt(receiver, "/all");
    const names = all.map(({ body }) => body.event).sort();
    expect(names).toEqual([
      "conversation.human_requested",
      "conversation.resolved",
      "message.created",
      "message.created",
      "message.created",
      "message.created",
    ]);
    for (const { request, body } of all) {
      expectSigned(request);
      expect(request.headers["x-service-event"]).toBe(body.event);
      expect(body).toMatchObject({ agentId, conversationId, createdAt: expect.any(String) });
    }
    // Each delivery is a job of its own: they arrive in any order.
    const questions = all
      .filter(({ body }) => body.event === "message.created" && body.data.message.from === "human")
      .map(({ body }) => body.data.message.text);
    expect(questions.sort()).toEqual(["I want to talk to a human", "When do you open?"]);
    const [resolved] = eventsAt(receiver, "/resolved");
    expect(resolved!.body).toMatchObject({
      event: "conversation.resolved",
      conversationId,
      data: { status: "RESOLVED", aiEnabled: true },
    });
    expect(new Set(all.map(({ request }) => request.headers["x-service-delivery"])).size).toBe(6);
    expect(eventsAt(receiver, "/other")).toEqual([]);
  });

  test("retry a receiver that fails, with the same delivery id, and show the attempts", async ({
    app,
    receiver,
  }) => {
    const org = await createFundedOrganization(app, "Flaky receiver");
    const { id: agentId } = await createAgent(app, org);
    const subscription = await subscribed({ app, receiver }, org, "/flaky", [
      "conversation.human_requested",
    ]);
    const asked = await app.client(org.auth).agents.query(agentId, { query: "Hello" });
    const { conversationId } = asked.body;
    receiver.respondWith([500]);
    expect(
      (await patchConversation(app, org, conversationId, { aiEnabled: false })).statusCode,
    ).toBe(200);
    await eventually(async () => expect(eventsAt(receiver, "/flaky")).toHaveLength(2));
    const [first, second] = eventsAt(receiver, "/flaky");
    expect(first!.request.answeredWith).toBe(500);
    expect(second!.request.headers["x-service-delivery"]).toBe(
      first!.request.headers["x-service-delivery"],
    );
    expect(second!.request.body).toBe(first!.request.body);
    expect(second!.body).toMatchObject({
      event: "conversation.human_requested",
      data: { trigger: "operator" },
    });

    const shown = await eventually(async () => {
      const response = await app.api.inject({
        url: `/api/event-subscriptions/${subscription.id}`,
        headers: org.auth,
      });
      expect(response.statusCode).toBe(200);
      expect(response.json().recentDeliveries[0]).toMatchObject({ state: "delivered" });
      return response.json();
    });
    expect(shown).toMatchObject({
      id: subscription.id,
      events: ["conversation.human_requested"],
      recentDeliveries: [
        {
          id: first!.request.headers["x-service-delivery"],
          event: "conversation.human_requested",
          attempts: 2,
          deliveredAt: expect.any(String),
        },
      ],
    });
  });

  test("are sent by the recovery sweep when the job of a stored delivery was lost", async ({
    app,
    receiver,
  }) => {
    const org = await createFundedOrganization(app, "Crashed");
    const subscription = await subscribed({ app, receiver }, org, "/recovered", [
      "conversation.resolved",
    ]);
    // What a process that died between committing a delivery and queueing its job leaves.
    const payload = JSON.stringify({ event: "conversation.resolved", data: {} });
    await app.database.db.insert(webhookDeliveries).values({
      id: "lost-delivery",
      organizationId: org.id,
      subscriptionId: subscription.id,
      event: "conversation.resolved",
      url: subscription.url,
      payloadStatus: "success",
      payload,
      nextAttemptAt: new Date(Date.now() - 5 * 60_000),
    });
    await app.runtime.jobs.send("webhook.recover", {});
    await eventually(async () => expect(eventsAt(receiver, "/recovered")).toHaveLength(1));
    const [recovered] = eventsAt(receiver, "/recovered");
    expect(recovered!.request.headers["x-service-delivery"]).toBe("lost-delivery");
    expect(recovered!.request.body).toBe(payload);
  });

  test("send lead.created to the subscriptions of instance administrators only", async ({
    app,
    receiver,
  }) => {
    const org = await createFundedOrganization(app, "Marketing");
    const administrator = await memberOf(app, org, "admin");
    const colleague = await memberOf(app, org, "admin");
    await app.database.db
      .update(users)
      .set({ instanceAdmin: true })
      .where(eq(users.id, administrator.userId));
    const payload = { url: `${receiver.url}/leads`, events: ["lead.created"] };
    const refused = await subscribe(app, colleague.headers, payload);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toMatch(/instance administrator/);
    expect((await subscribe(app, administrator.headers, payload)).statusCode).toBe(201);

    const lead = await app.site.inject({
      method: "POST",
      url: "/api/leads",
      headers: { "content-type": "application/json" },
      payload: { name: "Grace", email: "grace@example.com", company: "Navy" },
    });
    expect(lead.statusCode).toBe(201);
    await eventually(async () => expect(eventsAt(receiver, "/leads")).toHaveLength(1));
    const [delivered] = eventsAt(receiver, "/leads");
    expectSigned(delivered!.request);
    expect(delivered!.request.headers["x-service-event"]).toBe("lead.created");
    expect(delivered!.body).toMatchObject({
      event: "lead.created",
      data: { lead: { id: lead.json().id, email: "grace@example.com", company: "Navy" } },
    });
    expect(delivered!.body.data.lead.ipHash).toBeUndefined();
  });

  test("stop when deleted, and belong to their organization only", async ({ app, receiver }) => {
    const org = await createFundedOrganization(app, "Owner of one");
    const other = await createFundedOrganization(app, "Someone else");
    const subscription = await subscribed({ app, receiver }, org, "/deleted", ["message.created"]);
    const listed = await app.api.inject({ url: "/api/event-subscriptions", headers: org.auth });
    expect(listed.json()).toEqual({ data: [subscription] });
    const foreign = await app.api.inject({
      url: "/api/event-subscriptions",
      headers: other.auth,
    });
    expect(foreign.json()).toEqual({ data: [] });
    for (const method of ["GET", "DELETE"] as const) {
      const response = await app.api.inject({
        method,
        url: `/api/event-subscriptions/${subscription.id}`,
        headers: other.auth,
      });
      expect(response.statusCode).toBe(404);
    }
    const deleted = await app.api.inject({
      method: "DELETE",
      url: `/api/event-subscriptions/${subscription.id}`,
      headers: org.auth,
    });
    expect(deleted.statusCode).toBe(204);
    const { id: agentId } = await createAgent(app, org);
    expect((await app.client(org.auth).agents.query(agentId, { query: "Anyone?" })).status).toBe(
      200,
    );
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(eventsAt(receiver, "/deleted")).toEqual([]);
    const again = await app.api.inject({
      url: `/api/event-subscriptions/${subscription.id}`,
      headers: org.auth,
    });
    expect(again.statusCode).toBe(404);
  });

  test("refuse bad input and people who may not manage them", async ({ app, receiver }) => {
    const org = await createFundedOrganization(app, "Careful");
    const member = await memberOf(app, org, "member");
    const url = `${receiver.url}/never`;
    const cases: Array<[Record<string, unknown>, number]> = [
      [{}, 400],
      [{ url }, 400],
      [{ url, events: [] }, 400],
      [{ url, events: ["conversation.deleted"] }, 400],
      [{ url, events: "message.created" }, 400],
      [{ url: "not a url", events: ["message.created"] }, 400],
      [{ url: "ftp://example.com/hook", events: ["message.created"] }, 400],
      [{ url: "http://no-such-host.invalid/hook", events: ["message.created"] }, 400],
      [{ url: `${url}/${"x".repeat(2_100)}`, events: ["message.created"] }, 400],
    ];
    for (const [payload, status] of cases) {
      const response = await subscribe(app, org.auth, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(status);
      expect(response.json().error).toEqual(expect.any(String));
    }
    expect(
      (await subscribe(app, member.headers, { url, events: ["message.created"] })).statusCode,
    ).toBe(403);
    const anonymous = await app.api.inject({ url: "/api/event-subscriptions" });
    expect(anonymous.statusCode).toBe(401);
    const listed = await app.api.inject({ url: "/api/event-subscriptions", headers: org.auth });
    expect(listed.json()).toEqual({ data: [] });
  });

  test("are at most 25 per organization", async ({ app, receiver }) => {
    const org = await createFundedOrganization(app, "Many hooks");
    for (let index = 0; index < 25; index += 1) {
      await subscribed({ app, receiver }, org, `/many-${index}`, ["conversation.resolved"]);
    }
    const refused = await subscribe(app, org.auth, {
      url: `${receiver.url}/one-too-many`,
      events: ["conversation.resolved"],
    });
    expect(refused.statusCode).toBe(409);
  });
});

describe("e-mail when a customer asks for a person", () => {
  test("goes to the members who can reply, or to the assignee only", async ({ app, smtp }) => {
    const org = await createFundedOrganization(app, "Mailed");
    const { id: agentId } = await createAgent(app, org, { name: "Front desk" });
    const member = await memberOf(app, org, "member");
    const viewer = await memberOf(app, org, "viewer");
    const assignee = await memberOf(app, org, "member");

    const asked = await app
      .client(org.auth)
      .agents.query(agentId, { query: "Where is my parcel?" });
    const { conversationId } = asked.body;
    await app
      .client(org.auth)
      .agents.query(agentId, { query: "I want to talk to a human", conversationId });
    const mail = await smtp.nextMailTo(member.email);
    expect(mail.subject).toBe("A customer of Front desk is waiting for a person");
    expect(mail.text).toContain("> I want to talk to a human");
    expect(mail.text).toContain(
      `/console/conversations/${conversationId}?agentId=${encodeURIComponent(agentId)}`,
    );
    expect(mail.to).toContain(assignee.email);
    expect(mail.to).not.toContain(viewer.email);

    const second = await app.client(org.auth).agents.query(agentId, { query: "Hi again" });
    const secondId = second.body.conversationId;
    expect(
      (await patchConversation(app, org, secondId, { assigneeId: assignee.userId })).statusCode,
    ).toBe(200);
    await app.client(org.auth).agents.query(agentId, {
      query: "Can I speak to a person?",
      conversationId: secondId,
    });
    const assigned = await smtp.nextMailTo(assignee.email);
    expect(assigned.to).toEqual([assignee.email]);
    expect(assigned.text).toContain("> Can I speak to a person?");

    const mailed = smtp.received.length;
    const third = await app.client(org.auth).agents.query(agentId, { query: "Hello there" });
    expect(
      (await patchConversation(app, org, third.body.conversationId, { aiEnabled: false }))
        .statusCode,
    ).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(smtp.received).toHaveLength(mailed);
  });
});
