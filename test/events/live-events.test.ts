import { sql } from "drizzle-orm";
import { describe, expect } from "vitest";
import { memberOf, type SignedIn } from "../harness/accounts.ts";
import { createAgent } from "../harness/agents.ts";
import { startTestApp, type TestOrganization } from "../harness/app.ts";
import { testDatabaseKind } from "../harness/database.ts";
import { appTest } from "../harness/fixtures.ts";
import { openSse } from "../harness/sse-client.ts";
import { dataOf, markersOf, publish } from "./live-events-helpers.ts";

/**
 * `appTest` without a model key, and, once per file: `acme` (its `org`), `globex` (another
 * organization) and `url`, the API's live events URL.
 */
const test = appTest({ offline: true, funded: false, orgName: "Acme" })
  .extend("acme", { scope: "file" }, ({ org }) => org)
  .extend("globex", { scope: "file" }, ({ app }) => app.createOrganization("Globex"))
  .extend("url", { scope: "file" }, async ({ app }) => `${await app.listen("api")}/api/events`);

let owner: SignedIn;
let agentA: string;
let agentB: string;
let globexAgent: string;

test.beforeAll(async ({ app, acme, globex }) => {
  owner = await memberOf(app, acme, "owner");
  agentA = (await createAgent(app, acme, { name: "A" })).id;
  agentB = (await createAgent(app, acme, { name: "B" })).id;
  globexAgent = (await createAgent(app, globex)).id;
});

const acmeEvent = (acme: TestOrganization, marker: string, agentId = agentA) => ({
  organizationId: acme.id,
  agentId,
  data: { marker },
});
const globexEvent = (globex: TestOrganization, marker: string) => ({
  organizationId: globex.id,
  agentId: globexAgent,
  data: { marker },
});

describe("GET /api/events", () => {
  test("streams each organization's events to its own streams only, in order, with ids", async ({
    app,
    acme,
    globex,
    url,
  }) => {
    const acmeStream = await openSse(url, acme.auth);
    const globexStream = await openSse(url, globex.auth);
    expect(acmeStream.status).toBe(200);
    expect(acmeStream.headers.get("content-type")).toContain("text/event-stream");
    for (let index = 0; index < 5; index++) {
      await publish(app, {
        ...acmeEvent(acme, `acme-${index}`),
        name: "message.created",
        conversationId: "chat-9",
      });
      await publish(app, globexEvent(globex, `globex-${index}`));
    }
    const acmeEvents = await acmeStream.waitFor(5);
    await globexStream.waitFor(5);
    // Anything else published would have arrived with the last one expected.
    await publish(app, acmeEvent(acme, "acme-end"));
    await publish(app, globexEvent(globex, "globex-end"));
    await acmeStream.waitFor(6);
    await globexStream.waitFor(6);
    await Promise.all([acmeStream.close(), globexStream.close()]);

    expect(markersOf(acmeStream.events)).toEqual([
      "acme-0",
      "acme-1",
      "acme-2",
      "acme-3",
      "acme-4",
      "acme-end",
    ]);
    expect(markersOf(globexStream.events)).toEqual([
      ...[0, 1, 2, 3, 4].map((index) => `globex-${index}`),
      "globex-end",
    ]);
    expect(acmeEvents[0]).toMatchObject({ event: "message.created" });
    expect(dataOf(acmeEvents[0]!)).toEqual({
      conversationId: "chat-9",
      agentId: agentA,
      marker: "acme-0",
    });
    const ids = acmeStream.events.map((event) => Number(event.id));
    expect(ids.every((id, index) => index === 0 || id > ids[index - 1]!)).toBe(true);
  });

  test("gives a key scoped to agents only their events", async ({ app, acme, url }) => {
    const created = await app.api.inject({
      method: "POST",
      url: "/api/api-keys",
      headers: owner.headers,
      payload: { name: "Agent A only", scopes: ["conversations:read"], agentIds: [agentA] },
    });
    expect(created.statusCode).toBe(201);
    const scoped = await openSse(url, { authorization: `Bearer ${created.json().key}` });
    const all = await openSse(url, acme.auth);
    await publish(app, acmeEvent(acme, "b-1", agentB));
    await publish(app, acmeEvent(acme, "a-1", agentA));
    await publish(app, acmeEvent(acme, "b-2", agentB));
    await publish(app, acmeEvent(acme, "a-2", agentA));
    await scoped.waitFor(2);
    await all.waitFor(4);
    await Promise.all([scoped.close(), all.close()]);
    expect(markersOf(scoped.events)).toEqual(["a-1", "a-2"]);
    expect(markersOf(all.events)).toEqual(["b-1", "a-1", "b-2", "a-2"]);
  });

  test("streams to a signed-in member's session", async ({ app, acme, url }) => {
    const stream = await openSse(url, { cookie: owner.headers.cookie });
    expect(stream.status).toBe(200);
    await publish(app, acmeEvent(acme, "for-the-member"));
    await stream.waitFor(1);
    await stream.close();
    expect(markersOf(stream.events)).toEqual(["for-the-member"]);
  });

  test("resumes exactly after Last-Event-ID, or lastEventId, with no duplicate and no gap", async ({
    app,
    acme,
    globex,
    url,
  }) => {
    const first = await openSse(url, acme.auth);
    for (const marker of ["r-1", "r-2", "r-3"]) await publish(app, acmeEvent(acme, marker));
    const seen = await first.waitFor(3);
    await first.close();
    // Published while nobody listened, among another organization's.
    for (const marker of ["r-4", "r-5"]) {
      await publish(app, acmeEvent(acme, marker));
      await publish(app, globexEvent(globex, `g-${marker}`));
    }

    const resumed = await openSse(url, { ...acme.auth, "last-event-id": seen[0]!.id! });
    await resumed.waitFor(4);
    await publish(app, acmeEvent(acme, "r-6"));
    await resumed.waitFor(5);
    await resumed.close();
    expect(markersOf(resumed.events)).toEqual(["r-2", "r-3", "r-4", "r-5", "r-6"]);
    expect(resumed.events.slice(0, 2).map((event) => event.id)).toEqual(
      seen.slice(1).map((event) => event.id),
    );

    const byQuery = await openSse(`${url}?lastEventId=${seen[2]!.id}`, acme.auth);
    await byQuery.waitFor(3);
    await byQuery.close();
    expect(markersOf(byQuery.events)).toEqual(["r-4", "r-5", "r-6"]);
  });

  test("keeps at least 5 minutes of events for a reconnect; the prune job drops those past the hour", async ({
    app,
    acme,
    url,
  }) => {
    const stream = await openSse(url, acme.auth);
    for (const marker of ["old", "recent-1", "recent-2"])
      await publish(app, acmeEvent(acme, marker));
    const [old, recent] = await stream.waitFor(2);
    await stream.close();
    const { db } = app.database;
    await db.execute(
      sql`update live_events set created_at = now() - interval '61 minutes' where id = ${Number(old!.id)}`,
    );
    await db.execute(
      sql`update live_events set created_at = now() - interval '6 minutes' where id > ${Number(old!.id)}`,
    );
    await app.runtime.services.jobHandlers["events.prune"](
      {},
      {
        id: "test",
        retryCount: 0,
        signal: new AbortController().signal,
      },
    );

    const fromOld = await openSse(url, {
      ...acme.auth,
      "last-event-id": String(Number(old!.id) - 1),
    });
    await fromOld.waitFor(2);
    await fromOld.close();
    expect(markersOf(fromOld.events)).toEqual(["recent-1", "recent-2"]);
    expect(fromOld.events[0]!.id).toBe(recent!.id);
  });

  test("never delivers an event published in a transaction that rolled back", async ({
    app,
    acme,
    url,
  }) => {
    const stream = await openSse(url, acme.auth);
    await app.database.db
      .transaction(async (tx) => {
        await publish(app, acmeEvent(acme, "rolled-back"), tx);
        throw new Error("the change failed");
      })
      .catch(() => undefined);
    await app.database.db.transaction(async (tx) => {
      await publish(app, acmeEvent(acme, "committed"), tx);
    });
    await stream.waitFor(1);
    await publish(app, acmeEvent(acme, "after"));
    await stream.waitFor(2);
    await stream.close();
    expect(markersOf(stream.events)).toEqual(["committed", "after"]);
  });

  // PGlite runs one transaction at a time: there, no commit can overtake another.
  test.skipIf(testDatabaseKind === "pglite")(
    "numbers events in commit order: one whose transaction commits late is not skipped",
    async ({ app, acme, url }) => {
      const stream = await openSse(url, acme.auth);
      let inserted!: () => void;
      let release!: () => void;
      const insertedSignal = new Promise<void>((resolve) => {
        inserted = resolve;
      });
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      const slow = app.database.db.transaction(async (tx) => {
        await publish(app, acmeEvent(acme, "inserted-first"), tx);
        inserted();
        await held;
      });
      await insertedSignal;
      await publish(app, acmeEvent(acme, "committed-first"));
      await stream.waitFor(1);
      release();
      await slow;
      const events = await stream.waitFor(2);
      await stream.close();
      expect(markersOf(events)).toEqual(["committed-first", "inserted-first"]);
      expect(Number(events[1]!.id)).toBeGreaterThan(Number(events[0]!.id));

      const replay = await openSse(url, {
        ...acme.auth,
        "last-event-id": String(Number(events[0]!.id) - 1),
      });
      await replay.waitFor(2);
      await replay.close();
      expect(markersOf(replay.events)).toEqual(["committed-first", "inserted-first"]);
    },
  );

  test("sends pings while nothing happens", async ({ app, acme }) => {
    const pinging = await startTestApp({
      database: app.database,
      env: { SSE_PING_INTERVAL_MS: "50" },
    });
    try {
      const stream = await openSse(`${await pinging.listen("api")}/api/events`, acme.auth);
      await new Promise((resolve) => setTimeout(resolve, 300));
      await stream.close();
      expect(stream.comments.filter((comment) => comment.trim() === "ping").length).toBeGreaterThan(
        1,
      );
    } finally {
      await pinging.close();
    }
  });
});

describe("GET /api/events refusals", () => {
  test("is 401 without credentials and with a bad key, before any stream", async ({ url }) => {
    const attempts: Array<Record<string, string>> = [{}, { authorization: "Bearer adk_not-a-key" }];
    for (const headers of attempts) {
      const refused = await openSse(url, headers);
      expect(refused.status).toBe(401);
      expect(refused.json).toMatchObject({ type: "UNAUTHORIZED" });
    }
  });

  test("is 403 for a key without conversations:read", async ({ app, url }) => {
    const created = await app.api.inject({
      method: "POST",
      url: "/api/api-keys",
      headers: owner.headers,
      payload: { name: "Usage only", scopes: ["usage:read"] },
    });
    const refused = await openSse(url, { authorization: `Bearer ${created.json().key}` });
    expect(refused.status).toBe(403);
  });

  test("is 400 for a Last-Event-ID that is not an event id", async ({ acme, url }) => {
    const refused = await openSse(url, { ...acme.auth, "last-event-id": "yesterday" });
    expect(refused.status).toBe(400);
    expect(refused.json).toMatchObject({ type: "INVALID_REQUEST" });
  });
});
