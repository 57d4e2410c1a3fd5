import { describe, expect, test } from "vitest";
import {
  createEventHub,
  type EventHub,
  type StreamedEvent,
} from "../../src/domain/events/event-hub.ts";
import type { LiveEventRow } from "../../src/domain/events/event-repo.ts";

/**
 * The hub against an in-memory table that counts the process's reads; the database's part (ids at
 * commit, one notification "<id> <organization id>" per event) is played by `commit`.
 */
function hubWithTable() {
  const rows: LiveEventRow[] = [];
  const reads: Array<{ organizationId: string | null; afterId: number }> = [];
  let nextId = 1;
  const hub = createEventHub({
    events: {
      async after(organizationId, afterId, limit) {
        reads.push({ organizationId, afterId });
        return rows
          .filter((row) => row.id > afterId)
          .filter((row) => organizationId === null || row.organizationId === organizationId)
          .slice(0, limit);
      },
      async lastId() {
        return rows.at(-1)?.id ?? 0;
      },
    },
    logger: { warn() {} },
    settings: { maxQueued: 100, pageSize: 50, retryMs: 10 },
  });
  const select = (row: LiveEventRow): StreamedEvent => ({
    id: row.id,
    name: "message.created",
    data: { text: row.data.text },
  });
  return {
    hub,
    select,
    /** The process's reads of new events (not a stream's replays). */
    processReads: () => reads.filter((read) => read.organizationId === null),
    commit(organizationId: string, text: string) {
      // Ids skip as the table's do (one at insert, the final one at commit).
      nextId += 2;
      const row = {
        id: nextId,
        organizationId,
        agentId: "agent",
        conversationId: "conversation",
        name: "message.created",
        data: { text },
        createdAt: new Date(),
      } satisfies LiveEventRow;
      rows.push(row);
      hub.changes.onNotify(`${row.id} ${organizationId}`);
    },
  };
}

const settled = () => new Promise((resolve) => setTimeout(resolve, 20));

/** A stream of organization "busy" that reads the texts of two events, then ends. */
async function streamOfTwo(hub: EventHub, select: (row: LiveEventRow) => StreamedEvent) {
  const subscription = hub.subscribe("busy", select, null);
  await subscription.ready;
  const received: string[] = [];
  const reading = (async () => {
    for await (const event of subscription.events()) {
      received.push(String(event.data.text));
      if (received.length === 2) subscription.close();
    }
  })();
  return { subscription, received, reading };
}

describe("the event hub", () => {
  test("reads no event of an organization without a stream in this process", async () => {
    const { hub, processReads, commit } = hubWithTable();
    hub.changes.onListening();
    await settled();
    commit("quiet", "one");
    commit("quiet", "two");
    await settled();
    expect(processReads()).toEqual([]);
  });

  test("reads, and hands on in order, the events of an organization with a stream", async () => {
    const { hub, select, processReads, commit } = hubWithTable();
    hub.changes.onListening();
    await settled();
    commit("quiet", "before the stream");
    await settled();
    const { received, reading } = await streamOfTwo(hub, select);
    commit("quiet", "passed over");
    commit("busy", "first");
    commit("quiet", "passed over too");
    commit("busy", "second");
    await reading;
    expect(received).toEqual(["first", "second"]);
    // Reading "first" began after the quiet organization's events announced before it.
    expect(processReads()[0]?.afterId).toBeGreaterThan(0);
  });

  test("reads an event told of while a read was ending, though the next is passed over", async () => {
    // Announced some microtasks after the read of "first" began: during its statement, after
    // it, or as it ends; each must be read, not passed over with the quiet event after it.
    for (let delay = 0; delay < 12; delay += 1) {
      const { hub, select, commit } = hubWithTable();
      hub.changes.onListening();
      await settled();
      const { subscription, received, reading } = await streamOfTwo(hub, select);
      commit("busy", "first");
      for (let tick = 0; tick < delay; tick += 1) await Promise.resolve();
      commit("busy", "second");
      await settled();
      commit("quiet", "passed over");
      await Promise.race([reading, settled()]);
      subscription.close();
      expect({ delay, received }).toEqual({ delay, received: ["first", "second"] });
    }
  });
});
