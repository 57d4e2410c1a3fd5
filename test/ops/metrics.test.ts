import { describe, expect } from "vitest";
import { createAgent } from "../harness/agents.ts";
import { ADMIN_TOKEN, startTestApp } from "../harness/app.ts";
import { addFile, createDatastore, waitForSync } from "../knowledge/knowledge-helpers.ts";
import {
  createConversationalAgent,
  eventually,
  waitForPosts,
  webhookTest,
} from "../webhooks/webhook-helpers.ts";
import { expectFamilies, idLikeLabels, sampleValue, scrape } from "./metrics-text.ts";

const LEAD_LIMIT = 2;

const test = webhookTest({
  env: { LEAD_RATE_LIMIT_PER_MINUTE: String(LEAD_LIMIT) },
  orgName: "Measured",
})
  .extend("apiUrl", { scope: "file" }, ({ app }) => app.listen("api"))
  .extend("siteUrl", { scope: "file" }, ({ app }) => app.listen("site"));

const knownIds: string[] = [];

test.beforeAll(({ org }) => {
  knownIds.push(org.id, org.apiKeyId, org.userId, org.apiKey);
});

const postLead = (siteUrl: string, body: unknown) =>
  fetch(`${siteUrl}/api/leads`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });

describe("GET /metrics on the API listener", () => {
  test("counts what the service did, in the Prometheus text format, under bounded labels", async ({
    app,
    org,
    receiver,
    apiUrl,
    siteUrl,
  }) => {
    // A direct answer: a model call, a ledger row with credits, an HTTP request on a route with an id.
    const agent = await createAgent(app, org);
    knownIds.push(agent.id);
    const answered = await app
      .client(org.auth)
      .agents.query(agent.id, { query: "What are your hours?" });
    expect(answered.status).toBe(200);
    knownIds.push(answered.body.conversationId, answered.body.messageId);

    // An ingestion that ends synched.
    const datastore = await createDatastore(app, org);
    const datasource = await addFile(app, org, datastore.id, {
      fileName: "hours.txt",
      contentType: "text/plain",
      content: "We are open Monday to Friday, 9:00 to 17:00.",
    });
    knownIds.push(datastore.id, datasource.id);
    expect((await waitForSync(app, org, datasource.id)).status).toBe("synched");

    // A conversational answer delivered by webhook.
    const conversational = await createConversationalAgent(app, "Webhooked");
    knownIds.push(conversational.org.id, conversational.agentId);
    const queued = await app.client(conversational.org.auth).agents.query(conversational.agentId, {
      query: "Where is my order?",
      webhookUrl: `${receiver.url}/hook`,
    });
    expect(queued.status).toBe(200);
    await waitForPosts(receiver, 1);

    // Leads: stored, invalid, then rate limited past the limit of 2 a minute.
    const stored = await postLead(siteUrl, { name: "Jane", email: "jane@example.com" });
    expect(stored.status).toBe(201);
    knownIds.push(((await stored.json()) as { id: string }).id);
    expect((await postLead(siteUrl, { name: "Jane", email: "not an email" })).status).toBe(400);
    expect((await postLead(siteUrl, { name: "Jane", email: "jane@example.com" })).status).toBe(429);

    // A path no route matches, with an id-like segment and a query string.
    expect((await fetch(`${apiUrl}/api/nothing/${org.id}?secret=${org.apiKey}`)).status).toBe(404);

    const scraped = await eventually(async () => {
      const result = await scrape(apiUrl, ADMIN_TOKEN);
      expect(
        sampleValue(result.samples, "agentdesk_webhook_deliveries_total", { outcome: "delivered" }),
      ).toBe(1);
      return result;
    });
    expect(scraped.status).toBe(200);
    expect(scraped.contentType).toMatch(/^text\/plain; version=0\.0\.4/);
    expectFamilies(scraped.families, {
      http_request_duration_seconds: "HISTOGRAM",
      agentdesk_model_call_duration_seconds: "HISTOGRAM",
      agentdesk_model_tokens_total: "COUNTER",
      agentdesk_credits_charged_total: "COUNTER",
      agentdesk_consumption_events_total: "COUNTER",
      agentdesk_job_queue_depth: "GAUGE",
      agentdesk_jobs_total: "COUNTER",
      agentdesk_job_duration_seconds: "HISTOGRAM",
      agentdesk_ingestions_total: "COUNTER",
      agentdesk_webhook_deliveries_total: "COUNTER",
      agentdesk_lead_submissions_total: "COUNTER",
      process_cpu_seconds_total: "COUNTER",
      process_resident_memory_bytes: "GAUGE",
      nodejs_eventloop_lag_seconds: "GAUGE",
    });
    const { samples } = scraped;

    expect(
      sampleValue(samples, "http_request_duration_seconds_count", {
        method: "POST",
        route: "/api/agents/:id/query",
        status_code: "200",
      }),
    ).toBe(2);
    expect(
      sampleValue(samples, "http_request_duration_seconds_count", {
        method: "GET",
        route: "unmatched",
        status_code: "404",
      }),
    ).toBe(1);
    expect(
      sampleValue(samples, "http_request_duration_seconds_count", {
        route: "/api/leads",
        status_code: "429",
      }),
    ).toBe(1);

    // Two answers from the fake OpenAI model: the direct one and the webhook's.
    const model = { provider: "openai", model: "gpt_4o_mini" };
    expect(
      sampleValue(samples, "agentdesk_model_call_duration_seconds_count", {
        ...model,
        outcome: "ok",
      }),
    ).toBe(2);
    expect(
      sampleValue(samples, "agentdesk_model_tokens_total", { ...model, direction: "input" }),
    ).toBeGreaterThan(0);
    expect(
      sampleValue(samples, "agentdesk_model_tokens_total", { ...model, direction: "output" }),
    ).toBeGreaterThan(0);
    expect(sampleValue(samples, "agentdesk_consumption_events_total", { feature: "chat" })).toBe(2);
    expect(
      sampleValue(samples, "agentdesk_credits_charged_total", { feature: "chat" }),
    ).toBeGreaterThan(0);
    expect(sampleValue(samples, "agentdesk_ingestions_total", { outcome: "synched" })).toBe(1);
    expect(sampleValue(samples, "agentdesk_ingestions_total", { outcome: "error" })).toBe(0);
    expect(
      sampleValue(samples, "agentdesk_jobs_total", {
        queue: "knowledge.ingest",
        outcome: "completed",
      }),
    ).toBe(1);
    expect(
      sampleValue(samples, "agentdesk_jobs_total", {
        queue: "webhook.window",
        outcome: "completed",
      }),
    ).toBe(1);
    expect(sampleValue(samples, "agentdesk_job_queue_depth", { queue: "knowledge.ingest" })).toBe(
      0,
    );
    expect(
      samples.filter((sample) => sample.name === "agentdesk_job_queue_depth").map((s) => s.labels),
    ).toContainEqual({ queue: "webhook.deliver" });
    expect(sampleValue(samples, "agentdesk_lead_submissions_total", { outcome: "stored" })).toBe(1);
    expect(sampleValue(samples, "agentdesk_lead_submissions_total", { outcome: "invalid" })).toBe(
      1,
    );
    expect(
      sampleValue(samples, "agentdesk_lead_submissions_total", { outcome: "rate_limited" }),
    ).toBe(1);

    // Routes are patterns; nothing a client sent or an id the service made is a label value.
    const routes = new Set(
      samples
        .filter((sample) => sample.name === "http_request_duration_seconds_count")
        .map((sample) => sample.labels.route),
    );
    expect(routes).toContain("/api/agents/:id/query");
    expect(routes).toContain("/api/datasources/:id");
    expect(idLikeLabels(samples, knownIds)).toEqual([]);
    expect(scraped.text).not.toContain(org.apiKey);
  });

  test("counts queued jobs at scrape time", async ({ app, apiUrl }) => {
    const sent = await app.runtime.jobs.send(
      "lead.notify",
      { leadId: "not-a-lead" },
      { startAfter: 3_600_000 },
    );
    expect(sent).not.toBeNull();
    const { samples } = await scrape(apiUrl, ADMIN_TOKEN);
    expect(sampleValue(samples, "agentdesk_job_queue_depth", { queue: "lead.notify" })).toBe(1);
    await app.runtime.jobs.deletePending("lead.notify", "leadId", ["not-a-lead"]);
    const after = await scrape(apiUrl, ADMIN_TOKEN);
    expect(sampleValue(after.samples, "agentdesk_job_queue_depth", { queue: "lead.notify" })).toBe(
      0,
    );
  });
});

describe("who may read /metrics", () => {
  test("401 without a token, with a wrong one, with an organization's API key", async ({
    org,
    apiUrl,
  }) => {
    for (const token of [null, "wrong-token", org.apiKey, `${ADMIN_TOKEN}x`]) {
      const { status, text } = await scrape(apiUrl, token);
      expect(status).toBe(401);
      expect(JSON.parse(text)).toMatchObject({
        type: "UNAUTHORIZED",
        requestId: expect.any(String),
      });
      expect(text).not.toContain("http_request_duration_seconds");
    }
  });

  test("401 for a malformed Authorization header; 404 for another method", async ({ apiUrl }) => {
    for (const authorization of [
      "Basic abc",
      ADMIN_TOKEN,
      `Bearer ${ADMIN_TOKEN} extra`,
      "Bearer",
    ]) {
      const response = await fetch(`${apiUrl}/metrics`, { headers: { authorization } });
      expect(response.status).toBe(401);
    }
    const posted = await fetch(`${apiUrl}/metrics`, {
      method: "POST",
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" },
      body: "{}",
    });
    expect(posted.status).toBe(404);
  });

  test("is not on the marketing-site listener", async ({ siteUrl }) => {
    expect((await scrape(siteUrl, ADMIN_TOKEN)).status).toBe(404);
  });

  test("404 when ADMIN_TOKEN is not set", async () => {
    const app = await startTestApp({ env: { ADMIN_TOKEN: "" } });
    try {
      const url = await app.listen("api");
      for (const token of [null, ADMIN_TOKEN]) {
        const { status, text } = await scrape(url, token);
        expect(status).toBe(404);
        expect(JSON.parse(text)).toMatchObject({ type: "NOT_FOUND" });
      }
    } finally {
      await app.close();
    }
  });
});
