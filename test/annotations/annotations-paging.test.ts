import { describe, expect } from "vitest";
import type { TestOrganization } from "../harness/app.ts";
import { type AnnotationClient, annotationTest } from "./seed.ts";

type Item = { id: string; createdAt: string; agentId: string; tags: unknown[]; createdBy: unknown };

const test = annotationTest().extend("baseUrl", { scope: "file" }, ({ app }) => app.listen("api"));

async function annotate(
  client: AnnotationClient,
  organization: TestOrganization,
  messageIds: string[],
) {
  const ids: string[] = [];
  for (const messageId of messageIds) {
    const response = await client.create(
      { messageId, sentiment: "good", comment: `review of ${messageId}` },
      organization,
    );
    expect(response.status).toBe(200);
    ids.push(response.body.id);
  }
  return ids;
}

/** Follows cursors until a short page; returns every page as the client saw it. */
async function allPages(
  baseUrl: string,
  query: Record<string, string>,
  headers: Record<string, string>,
  betweenPages: () => Promise<void> = async () => {},
) {
  const pages: Item[][] = [];
  const nextCursors: Array<string | null> = [];
  let cursor: string | undefined;
  for (;;) {
    const search = new URLSearchParams({ ...query, ...(cursor ? { cursor } : {}) });
    const response = await fetch(`${baseUrl}/api/annotations?${search}`, { headers });
    expect(response.status).toBe(200);
    const page = (await response.json()) as Item[];
    pages.push(page);
    nextCursors.push(response.headers.get("x-next-cursor"));
    if (page.length < 20) return { pages, nextCursors };
    cursor = page.at(-1)!.id;
    await betweenPages();
  }
}

describe("cursor pagination", () => {
  test("pages through 45 annotations while others are created: none repeated, none missed", async ({
    app,
    seed,
    client,
    baseUrl,
  }) => {
    const org = await app.createOrganization("Pager");
    const agentId = await seed.agent(org);
    const initialMessages = await seed.agentMessages(org, agentId, 45);
    const laterMessages = await seed.agentMessages(org, agentId, 30);
    const betweenMessages = await seed.agentMessages(org, agentId, 6);
    const initial = await annotate(client, org, initialMessages);

    let writes = 0;
    // A writer racing the reader, plus writes known to land between two page requests.
    const writer = (async () => {
      for (const messageId of laterMessages) {
        const response = await fetch(`${baseUrl}/api/annotations`, {
          method: "POST",
          headers: { ...org.auth, "content-type": "application/json" },
          body: JSON.stringify({ messageId, sentiment: "bad", comment: "late" }),
        });
        expect(response.status).toBe(200);
        writes += 1;
      }
    })();
    const { pages } = await allPages(baseUrl, {}, org.auth, async () => {
      await annotate(client, org, betweenMessages.splice(0, 3));
    });
    await writer;

    const seen = pages.flat().map((item) => item.id);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual(expect.arrayContaining(initial));
    expect(pages.every((page) => page.length <= 20)).toBe(true);
    expect(writes).toBe(laterMessages.length);
    expect(betweenMessages).toEqual([]);
    // Newest first: the initial ones come out in reverse creation order.
    expect(seen.filter((id) => initial.includes(id))).toEqual([...initial].reverse());
  });

  test("serves exactly 20 per page with x-next-cursor only when another page exists", async ({
    app,
    seed,
    client,
    baseUrl,
  }) => {
    const org = await app.createOrganization("Exact pages");
    const agentId = await seed.agent(org);
    const created = await annotate(client, org, await seed.agentMessages(org, agentId, 40));
    const { pages, nextCursors } = await allPages(baseUrl, {}, org.auth);
    expect(pages.map((page) => page.length)).toEqual([20, 20, 0]);
    expect(nextCursors).toEqual([pages[0]!.at(-1)!.id, null, null]);
    expect(pages.flat().map((item) => item.id)).toEqual([...created].reverse());
    for (const item of pages.flat()) {
      expect(item).toMatchObject({ createdBy: { email: null }, tags: [] });
    }
  });

  test("breaks ties on creation time by id, descending, across page boundaries", async ({
    app,
    seed,
    client,
    baseUrl,
  }) => {
    const org = await app.createOrganization("Ties");
    const agentId = await seed.agent(org);
    const created = await annotate(client, org, await seed.agentMessages(org, agentId, 25));
    await seed.setAnnotationCreatedAt(created, "2026-03-01T12:00:00.000Z");
    const { pages } = await allPages(baseUrl, {}, org.auth);
    expect(pages.map((page) => page.length)).toEqual([20, 5]);
    expect(pages.flat().map((item) => item.id)).toEqual([...created].sort().reverse());
  });

  test("keeps microsecond order inside one millisecond (the cursor is resolved in the database)", async ({
    app,
    seed,
    client,
    baseUrl,
  }) => {
    const org = await app.createOrganization("Microseconds");
    const agentId = await seed.agent(org);
    const created = await annotate(client, org, await seed.agentMessages(org, agentId, 22));
    // Give each annotation its own microsecond of the same millisecond, against id order.
    const byId = [...created].sort();
    for (const [index, id] of byId.entries()) {
      const micros = String(index + 1).padStart(3, "0");
      await seed.setAnnotationCreatedAt([id], `2026-03-02T08:00:00.000${micros}Z`);
    }
    const { pages } = await allPages(baseUrl, {}, org.auth);
    expect(pages.map((page) => page.length)).toEqual([20, 2]);
    expect(pages.flat().map((item) => item.id)).toEqual([...byId].reverse());
    expect(new Set(pages.flat().map((item) => item.createdAt))).toEqual(
      new Set(["2026-03-02T08:00:00.000Z"]),
    );
  });

  test("pages with filters, and anonymously through a public agent", async ({
    app,
    seed,
    client,
    baseUrl,
  }) => {
    const org = await app.createOrganization("Filtered pages");
    const publicAgent = await seed.agent(org, { visibility: "public" });
    const privateAgent = await seed.agent(org);
    const publicIds = await annotate(client, org, await seed.agentMessages(org, publicAgent, 23));
    await annotate(client, org, await seed.agentMessages(org, privateAgent, 5));

    const anonymous = await allPages(baseUrl, { agentId: publicAgent }, {});
    expect(anonymous.pages.map((page) => page.length)).toEqual([20, 3]);
    expect(anonymous.pages.flat().map((item) => item.id)).toEqual([...publicIds].reverse());

    const keyed = await allPages(baseUrl, { agentId: publicAgent, sentiment: "Good" }, org.auth);
    expect(keyed.pages.flat().map((item) => item.id)).toEqual([...publicIds].reverse());
  });
});
