import { describe, expect } from "vitest";
import { startTestApp } from "../harness/app.ts";
import { appTest } from "../harness/fixtures.ts";
import { openSse } from "../harness/sse-client.ts";
import { markersOf, publish } from "./live-events-helpers.ts";

// Two API processes on one database (on PGlite, two apps sharing the in-process database): an
// event published through either reaches the streams of both.
const test = appTest({ offline: true, funded: false, orgName: "Shared" })
  .extend("first", { scope: "file" }, ({ app }) => app)
  .extend("second", { scope: "file" }, async ({ first }, { onCleanup }) => {
    const second = await startTestApp({ database: first.database, role: "api" });
    onCleanup(() => second.close());
    return second;
  });

describe("live events across API processes", () => {
  test("reach a stream on the other process, and one on the publishing process", async ({
    first,
    second,
    org,
  }) => {
    const onSecond = await openSse(`${await second.listen("api")}/api/events`, org.auth);
    const onFirst = await openSse(`${await first.listen("api")}/api/events`, org.auth);
    await publish(first, {
      organizationId: org.id,
      agentId: "agent-1",
      data: { marker: "from-1" },
    });
    await publish(second, {
      organizationId: org.id,
      agentId: "agent-1",
      data: { marker: "from-2" },
    });
    await Promise.all([onSecond.waitFor(2), onFirst.waitFor(2)]);
    await Promise.all([onSecond.close(), onFirst.close()]);
    expect(markersOf(onSecond.events)).toEqual(["from-1", "from-2"]);
    expect(markersOf(onFirst.events)).toEqual(["from-1", "from-2"]);
    expect(onSecond.events.map((event) => event.id)).toEqual(onFirst.events.map((e) => e.id));
  });

  test("end their open streams when a process shuts down, which then does not wait for them", async ({
    first,
    org,
  }) => {
    const third = await startTestApp({ database: first.database, role: "api" });
    const stream = await openSse(`${await third.listen("api")}/api/events`, org.auth);
    expect(stream.status).toBe(200);
    const started = performance.now();
    await third.close();
    await stream.ended;
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});
