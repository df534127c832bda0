import { describe, expect, it } from "vitest";
import { useTestAuth } from "#test/test-auth.ts";
import type { EventDoc } from "../../db/documents.ts";
import { newEventId } from "./ids.ts";
import { OUTBOX_KEEP, readEventsAfter, relayEvents, relayStrandedOutboxes, startRelay } from "./store.ts";

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

  it("a write's events reach the listeners (webhooks) as it returns, and events once gathered", async () => {
    const collections = t.auth.context.collections;
    const written = [eventAt(7000), eventAt(7001)];
    const told: string[] = [];
    const stop = collections.eventHub.subscribe((events) => told.push(...events.map((e) => e._id)));
    startRelay(collections, written);
    stop();
    // Told synchronously, so before any insert of them could have run.
    expect(told).toEqual(written.map((e) => e._id));
    const ids = written.map((e) => e._id);
    await collections.eventHub.settle();
    expect(await collections.events.countDocuments({ _id: { $in: ids } })).toBe(2);
  });

  it("the repair pass stores what outboxes hold and events lack; it empties only outboxes past OUTBOX_KEEP", async () => {
    const collections = t.auth.context.collections;
    const source = t.db.collection("outboxProbe");
    const [stranded, relayed, recent, other] = [eventAt(9000), eventAt(9001), eventAt(20_000), eventAt(9002)];
    // A document changed often: more settled events than an outbox keeps, and one written after the cutoff.
    const busy = Array.from({ length: OUTBOX_KEEP }, (_, i) => eventAt(8000 + i));
    const late = eventAt(20_001);
    await collections.events.insertMany([relayed, other, ...busy]);
    await source.insertMany([
      { _id: "a", _events: [stranded, relayed] },
      { _id: "b", _events: [recent] },
      { _id: "c" },
      { _id: "d", _events: [other] },
      { _id: "e", _events: [...busy, late] },
    ] as never);
    const published: string[] = [];
    const stop = collections.eventHub.subscribe((stored) => published.push(...stored.map((e) => e._id)));
    const repair = { settledBefore: new Date(10_000) };
    expect(await relayStrandedOutboxes(collections, source, repair)).toBe(3);
    stop();
    expect(published.sort()).toEqual([stranded._id, recent._id, late._id].sort());
    const ids = [stranded, relayed, recent, other, late].map((event) => event._id);
    expect(await collections.events.countDocuments({ _id: { $in: ids } })).toBe(5);
    // At most OUTBOX_KEEP events: kept as they are (emptying them is a write each).
    expect(await source.findOne({ _id: "a" } as never)).toEqual({ _id: "a", _events: [stranded, relayed] });
    expect(await source.findOne({ _id: "d" } as never)).toEqual({ _id: "d", _events: [other] });
    expect(await source.findOne({ _id: "b" } as never)).toEqual({ _id: "b", _events: [recent] });
    // More: the settled ones go, the one written after the cutoff stays for a later pass.
    expect(await source.findOne({ _id: "e" } as never)).toEqual({ _id: "e", _events: [late] });
    expect(await relayStrandedOutboxes(collections, source, repair)).toBe(0);
  });

  it("an event past retention is neither stored again nor kept: its outbox is emptied", async () => {
    const collections = t.auth.context.collections;
    const source = t.db.collection("outboxProbeExpired");
    // Retention deleted `old` from events long ago; `kept` is recent and stored.
    const [old, kept] = [eventAt(1000), eventAt(50_000)];
    await collections.events.insertOne(kept);
    await source.insertOne({ _id: "a", _events: [old, kept] } as never);
    const repair = { settledBefore: new Date(40_000), expiredBefore: new Date(2000) };
    expect(await relayStrandedOutboxes(collections, source, repair)).toBe(0);
    expect(await collections.events.countDocuments({ _id: old._id } as never)).toBe(0);
    expect(await source.findOne({ _id: "a" } as never)).toEqual({ _id: "a", _events: [kept] });
  });
});
