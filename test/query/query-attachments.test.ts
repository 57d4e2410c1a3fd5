import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  createAgent,
  createFundedOrganization,
  type QueryTestApp,
  query,
  startQueryTestApp,
} from "../agents/agent-helpers.ts";
import type { TestOrganization } from "../harness/app.ts";
import { buildPdf } from "../ingestion/loaders/pdf-fixture.ts";
import { type FakeWebSite, startFakeWebSite } from "../knowledge/fake-web-site.ts";

let t: QueryTestApp;
let site: FakeWebSite;
let org: TestOrganization;
let agentId: string;
beforeAll(async () => {
  t = await startQueryTestApp({ ATTACHMENT_MAX_BYTES: "4096", ATTACHMENT_TOKEN_BUDGET: "200" });
  site = await startFakeWebSite({
    "/files/invoice.pdf": {
      contentType: "application/pdf",
      body: Buffer.from(buildPdf([["Invoice 2024-117", "Total due: 89 euros"]])),
    },
    "/files/notes.md": { contentType: "text/markdown", body: "# Notes\n\nThe router blinks red." },
    "/files/long.txt": { contentType: "text/plain", body: "lorem ipsum ".repeat(300) },
    "/files/photo.png": {
      contentType: "image/png",
      body: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]),
    },
    "/files/huge.txt": { contentType: "text/plain", body: "x".repeat(10_000) },
  });
  org = await createFundedOrganization(t.app);
  agentId = (await createAgent(t.app, org)).id;
});
afterAll(async () => {
  await t.close();
  await site.close();
});
beforeEach(() => {
  t.fake.requests.length = 0;
});

const lastUserMessage = () => {
  const messages = (t.fake.requests[0]?.body?.messages ?? []) as Array<{
    role: string;
    content: string;
  }>;
  return messages.findLast((message) => message.role === "user")?.content ?? "";
};

describe("attachments", () => {
  it("fetches files, extracts their text and sends it with the question", async () => {
    const response = await query(t.app, org, agentId, {
      query: "What do these say?",
      attachments: [
        { url: `${site.base}/files/invoice.pdf` },
        { url: `${site.base}/files/notes.md` },
      ],
    });
    expect(response.statusCode).toBe(200);
    const sent = lastUserMessage();
    expect(sent.startsWith("What do these say?\n\nAttached files:\n")).toBe(true);
    expect(sent).toContain('<attachment name="invoice.pdf">');
    expect(sent).toContain("Total due: 89 euros");
    expect(sent).toContain('<attachment name="notes.md">');
    expect(sent).toContain("The router blinks red.");

    const stored = await t.app.api.inject({
      url: `/api/conversations/${response.json().conversationId}`,
      headers: org.auth,
    });
    expect(stored.json().messages[0]).toMatchObject({
      from: "human",
      text: "What do these say?",
      attachments: [
        { url: `${site.base}/files/invoice.pdf` },
        { url: `${site.base}/files/notes.md` },
      ],
    });
  });

  it("cuts attachment text to the token budget and marks the answer", async () => {
    const response = await query(t.app, org, agentId, {
      query: "summarize",
      attachments: [{ url: `${site.base}/files/long.txt` }],
    });
    expect(response.statusCode).toBe(200);
    const attached = lastUserMessage().split('<attachment name="long.txt">\n')[1] ?? "";
    // 200 tokens ≈ 800 characters, plus the ellipsis that says the text was cut.
    expect(attached.indexOf("\n</attachment>")).toBe(801);
    const stored = await t.app.api.inject({
      url: `/api/conversations/${response.json().conversationId}`,
      headers: org.auth,
    });
    expect(stored.json().messages[1].metadata.attachmentsTruncated).toBe(true);
  });

  it.each([
    ["missing", "/files/nothing.pdf", "the server answered HTTP 404"],
    ["an image", "/files/photo.png", "The file is a PNG image"],
    ["over ATTACHMENT_MAX_BYTES", "/files/huge.txt", ""],
  ])(
    "refuses an attachment that is %s with 400 and no model call",
    async (_label, path, reason) => {
      const url = `${site.base}${path}`;
      const response = await query(t.app, org, agentId, { query: "look", attachments: [{ url }] });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({
        type: "INVALID_REQUEST",
        error: expect.stringContaining(`Attachment ${url} cannot be used: ${reason}`),
        details: [{ path: "body.attachments.0.url", message: expect.any(String) }],
      });
      expect(t.fake.requests).toHaveLength(0);
    },
  );

  it("refuses an unreachable host", async () => {
    const response = await query(t.app, org, agentId, {
      query: "look",
      attachments: [{ url: "http://127.0.0.1:9/file.txt" }],
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toContain("cannot be used");
  });
});
