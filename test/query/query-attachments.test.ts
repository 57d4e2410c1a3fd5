import { afterAll, beforeAll, describe, expect } from "vitest";
import type { FakeOpenAI } from "../fakes/openai-server.ts";
import { type FakeWebSite, startFakeWebSite } from "../fakes/web-site.ts";
import { appTest } from "../harness/fixtures.ts";
import { buildPdf } from "../ingestion/loaders/pdf-fixture.ts";

const test = appTest({ env: { ATTACHMENT_MAX_BYTES: "4096", ATTACHMENT_TOKEN_BUDGET: "200" } });

let site: FakeWebSite;
beforeAll(async () => {
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
});
afterAll(() => site.close());

const lastUserMessage = (fake: FakeOpenAI) => {
  const messages = (fake.requests[0]?.body?.messages ?? []) as Array<{
    role: string;
    content: string;
  }>;
  return messages.findLast((message) => message.role === "user")?.content ?? "";
};

describe("attachments", () => {
  test("fetches files, extracts their text and sends it with the question", async ({
    api,
    fake,
    agent: { id: agentId },
  }) => {
    const response = await api.agents.query(agentId, {
      query: "What do these say?",
      attachments: [
        { url: `${site.base}/files/invoice.pdf` },
        { url: `${site.base}/files/notes.md` },
      ],
    });
    expect(response.status).toBe(200);
    const sent = lastUserMessage(fake);
    expect(sent.startsWith("What do these say?\n\nAttached files:\n")).toBe(true);
    expect(sent).toContain('<attachment name="invoice.pdf">');
    expect(sent).toContain("Total due: 89 euros");
    expect(sent).toContain('<attachment name="notes.md">');
    expect(sent).toContain("The router blinks red.");

    const stored = await api.conversations.get(response.body.conversationId);
    expect(stored.body.messages[0]).toMatchObject({
      from: "human",
      text: "What do these say?",
      attachments: [
        { url: `${site.base}/files/invoice.pdf` },
        { url: `${site.base}/files/notes.md` },
      ],
    });
  });

  test("cuts attachment text to the token budget and marks the answer", async ({
    api,
    fake,
    agent: { id: agentId },
  }) => {
    const response = await api.agents.query(agentId, {
      query: "summarize",
      attachments: [{ url: `${site.base}/files/long.txt` }],
    });
    expect(response.status).toBe(200);
    const attached = lastUserMessage(fake).split('<attachment name="long.txt">\n')[1] ?? "";
    // 200 tokens ≈ 800 characters, plus the ellipsis that says the text was cut.
    expect(attached.indexOf("\n</attachment>")).toBe(801);
    const stored = await api.conversations.get(response.body.conversationId);
    expect(stored.body.messages[1].metadata.attachmentsTruncated).toBe(true);
  });

  test.for([
    ["missing", "/files/nothing.pdf", "the server answered HTTP 404"],
    ["an image", "/files/photo.png", "The file is a PNG image"],
    ["over ATTACHMENT_MAX_BYTES", "/files/huge.txt", ""],
  ])(
    "refuses an attachment that is %s with 400 and no model call",
    async ([, path, reason], { api, fake, agent }) => {
      const url = `${site.base}${path}`;
      const response = await api.agents.query(agent.id, { query: "look", attachments: [{ url }] });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({
        type: "INVALID_REQUEST",
        error: expect.stringContaining(`Attachment ${url} cannot be used: ${reason}`),
        details: [{ path: "body.attachments.0.url", message: expect.any(String) }],
      });
      expect(fake.requests).toHaveLength(0);
    },
  );

  test("refuses an unreachable host", async ({ api, agent: { id: agentId } }) => {
    const response = await api.agents.query(agentId, {
      query: "look",
      attachments: [{ url: "http://127.0.0.1:9/file.txt" }],
    });
    expect(response.status).toBe(400);
    expect(response.error.error).toContain("cannot be used");
  });
});
