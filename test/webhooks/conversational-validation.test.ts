import { createServer } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { createAgent } from "../harness/agents.ts";
import { ADMIN_TOKEN, type TestOrganization } from "../harness/app.ts";
import {
  createConversationalAgent,
  deliveriesOf,
  eventually,
  posts,
  startWebhookTestApp,
  type WebhookTestApp,
  waitForPosts,
} from "./webhook-helpers.ts";

let t: WebhookTestApp;
let org: TestOrganization;
let agentId: string;
beforeAll(async () => {
  t = await startWebhookTestApp();
  ({ org, agentId } = await createConversationalAgent(t.app));
});
afterAll(() => t.close());
beforeEach(() => {
  t.fake.requests.length = 0;
  t.receiver.requests.length = 0;
});

/** A port on 127.0.0.1 where nothing listens. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function expect400(body: Record<string, unknown>, message: RegExp) {
  const response = await t.app.client(org.auth).agents.query(agentId, { query: "Hello", ...body });
  expect(response.status).toBe(400);
  const error = response.error;
  expect(error).toMatchObject({
    type: "INVALID_REQUEST",
    details: [expect.objectContaining({ path: "body.webhookUrl" })],
  });
  expect(error.error).toMatch(message);
  return error;
}

async function messagesOfOrganization() {
  const response = await t.app.api.inject({
    url: `/api/conversations?agentId=${agentId}`,
    headers: org.auth,
  });
  return response.json().data as unknown[];
}

describe("webhookUrl of a conversational agent on the api channel", () => {
  test("is required, with or without an explicit api channel", async () => {
    await expect400({}, /webhookUrl is required/);
    await expect400({ channel: "api" }, /webhookUrl is required/);
    await expect400({ webhookUrl: "  " }, /webhookUrl is required/);
  });

  test("must be a URL", async () => {
    await expect400({ webhookUrl: "not a url" }, /is not a valid URL/);
    await expect400({ webhookUrl: "receiver.example.com/hook" }, /is not a valid URL/);
  });

  test("must use http or https", async () => {
    await expect400({ webhookUrl: "ftp://127.0.0.1/hook" }, /must use http or https, not ftp/);
    await expect400({ webhookUrl: "file:///etc/passwd" }, /must use http or https, not file/);
  });

  test("must be reachable", async () => {
    const port = await closedPort();
    await expect400({ webhookUrl: `http://127.0.0.1:${port}/hook` }, /is not reachable/);
  });

  test("is refused before anything is stored or generated", async () => {
    const before = (await messagesOfOrganization()).length;
    await expect400({ webhookUrl: "nope" }, /not a valid URL/);
    expect(await messagesOfOrganization()).toHaveLength(before);
    expect(t.fake.requests).toHaveLength(0);
  });

  test("is probed with a HEAD request that a webhook receiver answers", async () => {
    const response = await t.app.client(org.auth).agents.query(agentId, {
      query: "Hello",
      webhookUrl: `${t.receiver.url}/probe-me`,
    });
    expect(response.status).toBe(200);
    expect(t.receiver.requests[0]).toMatchObject({ method: "HEAD", path: "/probe-me" });
    // The answer follows once the window closes; let it land before the next test counts.
    const [delivered] = await waitForPosts(t.receiver, 1);
    expect(delivered).toMatchObject({ method: "POST", path: "/probe-me" });
  });
});

describe("when conversational mode does not apply", () => {
  test("answers at once on another channel, even with a webhookUrl", async () => {
    t.fake.script({ text: "Direct answer." });
    const response = await t.app.client(org.auth).agents.query(agentId, {
      query: "Hello",
      channel: "website",
      webhookUrl: `${t.receiver.url}/hook`,
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      answer: "Direct answer.",
      messageId: expect.any(String),
    });
    expect(t.receiver.requests).toHaveLength(0);
  });

  test("answers at once for an agent without conversational mode", async () => {
    const plain = await createAgent(t.app, org, { name: "Plain" });
    t.fake.script({ text: "Plain answer." });
    const response = await t.app.client(org.auth).agents.query(plain.id, {
      query: "Hello",
      webhookUrl: `${t.receiver.url}/hook`,
    });
    expect(response.status).toBe(200);
    expect(response.body.answer).toBe("Plain answer.");
    expect(posts(t.receiver)).toHaveLength(0);
  });
});

describe("usage limits of conversational mode", () => {
  test("answers 402 at once when the organization cannot run, and queues nothing", async () => {
    const blocked = await createConversationalAgent(t.app, "Overdue");
    const patched = await t.app.api.inject({
      method: "PATCH",
      url: `/api/admin/organizations/${blocked.org.id}/billing`,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      payload: { subscriptionStatus: "past_due" },
    });
    expect(patched.statusCode).toBe(200);
    const response = await t.app.client(blocked.org.auth).agents.query(blocked.agentId, {
      query: "Hello",
      webhookUrl: `${t.receiver.url}/hook`,
    });
    expect(response.status).toBe(402);
    expect(response.error.type).toBe("USAGE_LIMIT");
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    expect(posts(t.receiver)).toHaveLength(0);
  });
});

describe("conversational mode across organizations", () => {
  test("gives each organization using the same conversation id its own conversation and deliveries", async () => {
    const shared = "ticket-42";
    const other = await createConversationalAgent(t.app, "Globex");
    t.fake.script({ text: "Globex answer." });
    const theirs = await t.app.client(other.org.auth).agents.query(other.agentId, {
      query: "Globex question",
      conversationId: shared,
      webhookUrl: `${t.receiver.url}/globex`,
    });
    expect(theirs.status).toBe(200);
    await waitForPosts(t.receiver, 1);

    t.fake.script({ text: "Acme answer." });
    const mine = await t.app.client(org.auth).agents.query(agentId, {
      query: "Acme question",
      conversationId: shared,
      webhookUrl: `${t.receiver.url}/acme`,
    });
    expect(mine.status).toBe(200);
    expect(mine.body).toMatchObject({ status: "queued", conversationId: shared });
    const received = await waitForPosts(t.receiver, 2);

    const payloads = Object.fromEntries(
      received.map((request) => [request.path, JSON.parse(request.body)]),
    );
    expect(payloads["/globex"]).toMatchObject({
      conversationId: shared,
      agentResponse: { answer: "Globex answer." },
    });
    expect(payloads["/acme"]).toMatchObject({
      conversationId: shared,
      agentResponse: { answer: "Acme answer." },
    });
    expect(JSON.stringify(t.fake.requests.at(-1)?.body)).not.toContain("Globex question");

    const urlsOf = async (who: TestOrganization) =>
      (await deliveriesOf(t.app, who, shared)).map((delivery) => delivery.url);
    expect(await urlsOf(org)).toEqual([`${t.receiver.url}/acme`]);
    expect(await urlsOf(other.org)).toEqual([`${t.receiver.url}/globex`]);
    const anonymous = await t.app.api.inject({
      url: `/api/conversations/${shared}/webhook-deliveries`,
    });
    expect(anonymous.statusCode).toBe(401);
    const events = await eventually(async () => {
      const response = await t.app.api.inject({
        url: `/api/consumption-events?conversationId=${shared}`,
        headers: org.auth,
      });
      const data = response.json().data as Array<{ conversationId: string; agentId: string }>;
      expect(data).toHaveLength(1);
      return data;
    });
    expect(events[0]).toMatchObject({ conversationId: shared, agentId });
  });
});
