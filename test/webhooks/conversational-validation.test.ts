import { createServer } from "node:net";
import { describe, expect } from "vitest";
import { createAgent } from "../harness/agents.ts";
import { ADMIN_TOKEN, type TestOrganization } from "../harness/app.ts";
import type { ApiClient } from "../harness/client.ts";
import {
  createConversationalAgent,
  deliveriesOf,
  eventually,
  posts,
  waitForPosts,
  webhookTest,
} from "./webhook-helpers.ts";

const test = webhookTest();

/** A port on 127.0.0.1 where nothing listens. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function expect400(
  api: ApiClient,
  agentId: string,
  body: Record<string, unknown>,
  message: RegExp,
) {
  const response = await api.agents.query(agentId, { query: "Hello", ...body });
  expect(response.status).toBe(400);
  const error = response.error;
  expect(error).toMatchObject({
    type: "INVALID_REQUEST",
    details: [expect.objectContaining({ path: "body.webhookUrl" })],
  });
  expect(error.error).toMatch(message);
  return error;
}

async function messagesOfOrganization(api: ApiClient, agentId: string) {
  const response = await api.request({ url: `/api/conversations?agentId=${agentId}` });
  return response.body.data as unknown[];
}

describe("webhookUrl of a conversational agent on the api channel", () => {
  test("is required, with or without an explicit api channel", async ({ api, agent }) => {
    await expect400(api, agent.id, {}, /webhookUrl is required/);
    await expect400(api, agent.id, { channel: "api" }, /webhookUrl is required/);
    await expect400(api, agent.id, { webhookUrl: "  " }, /webhookUrl is required/);
  });

  test("must be a URL", async ({ api, agent }) => {
    await expect400(api, agent.id, { webhookUrl: "not a url" }, /is not a valid URL/);
    await expect400(
      api,
      agent.id,
      { webhookUrl: "receiver.example.com/hook" },
      /is not a valid URL/,
    );
  });

  test("must use http or https", async ({ api, agent }) => {
    await expect400(
      api,
      agent.id,
      { webhookUrl: "ftp://127.0.0.1/hook" },
      /must use http or https, not ftp/,
    );
    await expect400(
      api,
      agent.id,
      { webhookUrl: "file:///etc/passwd" },
      /must use http or https, not file/,
    );
  });

  test("must be reachable", async ({ api, agent }) => {
    const port = await closedPort();
    await expect400(
      api,
      agent.id,
      { webhookUrl: `http://127.0.0.1:${port}/hook` },
      /is not reachable/,
    );
  });

  test("is refused before anything is stored or generated", async ({ api, agent, fake }) => {
    const before = (await messagesOfOrganization(api, agent.id)).length;
    await expect400(api, agent.id, { webhookUrl: "nope" }, /not a valid URL/);
    expect(await messagesOfOrganization(api, agent.id)).toHaveLength(before);
    expect(fake.requests).toHaveLength(0);
  });

  test("is probed with a HEAD request that a webhook receiver answers", async ({
    api,
    agent,
    receiver,
  }) => {
    const response = await api.agents.query(agent.id, {
      query: "Hello",
      webhookUrl: `${receiver.url}/probe-me`,
    });
    expect(response.status).toBe(200);
    expect(receiver.requests[0]).toMatchObject({ method: "HEAD", path: "/probe-me" });
    // The answer follows once the window closes; let it land before the next test counts.
    const [delivered] = await waitForPosts(receiver, 1);
    expect(delivered).toMatchObject({ method: "POST", path: "/probe-me" });
  });
});

describe("when conversational mode does not apply", () => {
  test("answers at once on another channel, even with a webhookUrl", async ({
    api,
    agent,
    fake,
    receiver,
  }) => {
    fake.script({ text: "Direct answer." });
    const response = await api.agents.query(agent.id, {
      query: "Hello",
      channel: "website",
      webhookUrl: `${receiver.url}/hook`,
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      answer: "Direct answer.",
      messageId: expect.any(String),
    });
    expect(receiver.requests).toHaveLength(0);
  });

  test("answers at once for an agent without conversational mode", async ({
    app,
    api,
    org,
    fake,
    receiver,
  }) => {
    const plain = await createAgent(app, org, { name: "Plain" });
    fake.script({ text: "Plain answer." });
    const response = await api.agents.query(plain.id, {
      query: "Hello",
      webhookUrl: `${receiver.url}/hook`,
    });
    expect(response.status).toBe(200);
    expect(response.body.answer).toBe("Plain answer.");
    expect(posts(receiver)).toHaveLength(0);
  });
});

describe("usage limits of conversational mode", () => {
  test("answers 402 at once when the organization cannot run, and queues nothing", async ({
    app,
    receiver,
  }) => {
    const blocked = await createConversationalAgent(app, "Overdue");
    const patched = await app.api.inject({
      method: "PATCH",
      url: `/api/admin/organizations/${blocked.org.id}/billing`,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      payload: { subscriptionStatus: "past_due" },
    });
    expect(patched.statusCode).toBe(200);
    const response = await app.client(blocked.org.auth).agents.query(blocked.agentId, {
      query: "Hello",
      webhookUrl: `${receiver.url}/hook`,
    });
    expect(response.status).toBe(402);
    expect(response.error.type).toBe("USAGE_LIMIT");
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    expect(posts(receiver)).toHaveLength(0);
  });
});

describe("conversational mode across organizations", () => {
  test("gives each organization using the same conversation id its own conversation and deliveries", async ({
    app,
    api,
    org,
    agent,
    fake,
    receiver,
  }) => {
    const shared = "ticket-42";
    const other = await createConversationalAgent(app, "Globex");
    fake.script({ text: "Globex answer." });
    const theirs = await app.client(other.org.auth).agents.query(other.agentId, {
      query: "Globex question",
      conversationId: shared,
      webhookUrl: `${receiver.url}/globex`,
    });
    expect(theirs.status).toBe(200);
    await waitForPosts(receiver, 1);

    fake.script({ text: "Acme answer." });
    const mine = await api.agents.query(agent.id, {
      query: "Acme question",
      conversationId: shared,
      webhookUrl: `${receiver.url}/acme`,
    });
    expect(mine.status).toBe(200);
    expect(mine.body).toMatchObject({ status: "queued", conversationId: shared });
    const received = await waitForPosts(receiver, 2);

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
    expect(JSON.stringify(fake.requests.at(-1)?.body)).not.toContain("Globex question");

    const urlsOf = async (who: TestOrganization) =>
      (await deliveriesOf(app, who, shared)).map((delivery) => delivery.url);
    expect(await urlsOf(org)).toEqual([`${receiver.url}/acme`]);
    expect(await urlsOf(other.org)).toEqual([`${receiver.url}/globex`]);
    const anonymous = await app.api.inject({
      url: `/api/conversations/${shared}/webhook-deliveries`,
    });
    expect(anonymous.statusCode).toBe(401);
    const events = await eventually(async () => {
      const response = await app.api.inject({
        url: `/api/consumption-events?conversationId=${shared}`,
        headers: org.auth,
      });
      const data = response.json().data as Array<{ conversationId: string; agentId: string }>;
      expect(data).toHaveLength(1);
      return data;
    });
    expect(events[0]).toMatchObject({ conversationId: shared, agentId: agent.id });
  });
});
