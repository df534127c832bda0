import { describe, expect, it } from "vitest";
import { useTestAuth } from "#test/test-auth.ts";
import type { EventDoc } from "../../db/documents.ts";
import { newEventId } from "./ids.ts";
import { readEventsAfter, relayEvents, relayStrandedOutboxes } from "./store.ts";

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

  it("a relay stores each event once and tells the listeners; readEventsAfter pages by _id", async () => {
    const collections = t.auth.context.collections;
    const events = [eventAt(5000), eventAt(5001), eventAt(5002)];
    await collections.events.insertOne(events[0]!); // a relay that stored one before a crash
    const published: string[] = [];
    const stop = collections.eventHub.subscribe((stored) => published.push(...stored.map((e) => e._id)));
    await relayEvents(collections, events);
    stop();
    expect(published).toEqual(events.map((e) => e._id));
    expect(await readEventsAfter(collections, null, 10)).toEqual(events);
    expect(await readEventsAfter(collections, events[0]!._id, 1)).toEqual([events[1]]);
  });

  it("the repair pass stores what outboxes hold and events lack, and empties the settled ones", async () => {
    const collections = t.auth.context.collections;
    const source = t.db.collection("outboxProbe");
    const [stranded, relayed, recent, other] = [eventAt(9000), eventAt(9001), eventAt(20_000), eventAt(9002)];
    await collections.events.insertMany([relayed, other]);
    await source.insertMany([
      { _id: "a", _events: [stranded, relayed] },
      { _id: "b", _events: [recent] },
      { _id: "c" },
      { _id: "d", _events: [other] },
    ] as never);
    const published: string[] = [];
    const stop = collections.eventHub.subscribe((stored) => published.push(...stored.map((e) => e._id)));
    expect(await relayStrandedOutboxes(collections, source, new Date(10_000))).toBe(2);
    stop();
    expect(published.sort()).toEqual([stranded._id, recent._id].sort());
    const ids = [stranded, relayed, recent, other].map((event) => event._id);
    expect(await collections.events.countDocuments({ _id: { $in: ids } })).toBe(4);
    // Written before the cutoff: emptied (the documents of one batch in one write); after it: kept
    // for a later pass.
    expect(await source.findOne({ _id: "a" } as never)).toEqual({ _id: "a", _events: [] });
    expect(await source.findOne({ _id: "d" } as never)).toEqual({ _id: "d", _events: [] });
    expect(await source.findOne({ _id: "b" } as never)).toEqual({ _id: "b", _events: [recent] });
    expect(await relayStrandedOutboxes(collections, source, new Date(10_000))).toBe(0);
  });
});
