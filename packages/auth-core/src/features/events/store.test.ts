import { describe, expect, it } from "vitest";
import { useTestAuth } from "#test/test-auth.ts";
import type { EventDoc } from "../../db/documents.ts";
import { newEventId } from "./ids.ts";
import { readEventsAfter, relayOutbox, relayStrandedOutboxes } from "./store.ts";

const t = useTestAuth();

function eventAt(ms: number, type = "user.updated"): EventDoc {
  const at = new Date(ms);
  return { _id: newEventId(at), type, createdAt: at, organizationId: null, userId: null, data: { n: ms } };
}

describe("the events store", () => {
  it("ids sort by time, and within one millisecond by the order they were made", () => {
    const ids = [eventAt(2000), eventAt(2000), eventAt(2001), eventAt(1_700_000_000_000)].map((e) => e._id);
    expect([...ids].sort()).toEqual(ids);
    expect(ids[0]).toMatch(/^evt_[0-9a-f]{28}$/);
  });

  it("a relay stores each event once, pulls it from its document, and readEventsAfter pages by _id", async () => {
    const collections = t.auth.context.collections;
    const source = t.db.collection("outboxProbe");
    const events = [eventAt(5000), eventAt(5001), eventAt(5002)];
    await source.insertOne({ _id: "doc-1", _events: events } as never);
    await collections.events.insertOne(events[0]!); // a relay that stored one before a crash
    const published: string[] = [];
    const stop = collections.eventHub.subscribe((stored) => published.push(...stored.map((e) => e._id)));
    await relayOutbox(collections, source, "doc-1", events);
    stop();
    expect(await source.findOne({ _id: "doc-1" } as never)).toEqual({ _id: "doc-1", _events: [] });
    expect(published).toEqual(events.map((e) => e._id));
    expect(await readEventsAfter(collections, null, 10)).toEqual(events);
    expect(await readEventsAfter(collections, events[0]!._id, 1)).toEqual([events[1]]);
  });

  it("the repair pass relays the events left in documents, and only those", async () => {
    const collections = t.auth.context.collections;
    const source = t.db.collection("outboxProbe2");
    const stranded = eventAt(9000);
    await source.insertMany([
      { _id: "a", _events: [stranded] },
      { _id: "b", _events: [] },
      { _id: "c" },
    ] as never);
    expect(await relayStrandedOutboxes(collections, source)).toBe(1);
    expect(await collections.events.findOne({ _id: stranded._id })).toEqual(stranded);
    expect(await source.findOne({ _id: "a" } as never)).toEqual({ _id: "a", _events: [] });
    expect(await relayStrandedOutboxes(collections, source)).toBe(0);
  });
});
