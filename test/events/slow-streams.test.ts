import { get, type IncomingMessage } from "node:http";
import { createParser, type EventSourceMessage } from "eventsource-parser";
import { describe, expect } from "vitest";
import type { TestOrganization } from "../harness/app.ts";
import { appTest } from "../harness/fixtures.ts";
import { openSse } from "../harness/sse-client.ts";
import { publish } from "./live-events-helpers.ts";

const test = appTest({ offline: true, funded: false, orgName: "Busy" }).extend(
  "base",
  { scope: "file" },
  ({ app }) => app.listen("api"),
);

/** A stream whose client reads nothing until it resumes the response. */
function stalledStream(base: string, org: TestOrganization): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const request = get(`${base}/api/events`, { headers: org.auth }, (response) => {
      response.pause();
      resolve(response);
    });
    request.on("error", reject);
  });
}

/** Reads a resumed response until `count` events arrived. */
function readEvents(response: IncomingMessage, count: number): Promise<EventSourceMessage[]> {
  return new Promise((resolve) => {
    const events: EventSourceMessage[] = [];
    const parser = createParser({
      onEvent(event) {
        events.push(event);
        if (events.length === count) {
          response.destroy();
          resolve(events);
        }
      },
    });
    response.setEncoding("utf8");
    response.on("data", (text: string) => parser.feed(text));
    response.resume();
  });
}

const indexesOf = (events: EventSourceMessage[]) =>
  events.map((event) => JSON.parse(event.data).index);

describe("streams that fall behind", () => {
  // Large events fill the stalled client's socket buffers, then its queue of 500 events; more
  // than 500 are committed while the process reads them, so every stream gets a burst.
  const COUNT = 700;
  const padding = "x".repeat(64 * 1024);
  const all = Array.from({ length: COUNT }, (_, index) => index);

  // 45 MB through the database and two sockets: 6 s on a quiet machine, over 30 s in a busy CI.
  test("hold up no other stream, and miss nothing once they read again", async ({
    app,
    org,
    base,
  }) => {
    const stalled = await stalledStream(base, org);
    const reader = await openSse(`${base}/api/events`, org.auth);
    for (const index of all) {
      await publish(app, { organizationId: org.id, agentId: "agent-1", data: { index, padding } });
    }
    const received = await reader.waitFor(COUNT, 100_000);
    await reader.close();
    expect(indexesOf(received)).toEqual(all);

    const late = await readEvents(stalled, COUNT);
    expect(indexesOf(late)).toEqual(all);
    expect(late.map((event) => event.id)).toEqual(received.map((event) => event.id));
  }, 120_000);
});
