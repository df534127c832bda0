import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { EventDoc } from "./documents.ts";
import { BATCH_WINDOW_MS, createEventHub } from "./event-hub.ts";

/** The hub's gathering of events into one insert (docs/scale.md "Events on a sign-up"). */
const eventOf = (n: number) =>
  ({
    _id: `evt_${n}`,
    type: "user.updated",
    createdAt: new Date(n),
    organizationId: null,
    userId: null,
    data: {},
  }) as EventDoc;

describe("the event hub gathers events for one insert", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("events of many writes within the window go to one relay, after the window", async () => {
    const hub = createEventHub(() => new Date());
    const relays: string[][] = [];
    const relay = async (events: EventDoc[]) => void relays.push(events.map((event) => event._id));
    hub.batch([eventOf(1), eventOf(2)], relay);
    hub.batch([eventOf(3)], relay);
    await vi.advanceTimersByTimeAsync(BATCH_WINDOW_MS - 50);
    expect(relays).toEqual([]);
    hub.batch([eventOf(4)], relay);
    await vi.advanceTimersByTimeAsync(60);
    expect(relays).toEqual([["evt_1", "evt_2", "evt_3", "evt_4"]]);
    hub.batch([eventOf(5)], relay);
    await vi.advanceTimersByTimeAsync(BATCH_WINDOW_MS + 50);
    expect(relays).toEqual([["evt_1", "evt_2", "evt_3", "evt_4"], ["evt_5"]]);
  });

  it("settle() stores the gathered events at once, without waiting for the window", async () => {
    const hub = createEventHub(() => new Date());
    const relays: string[][] = [];
    hub.batch([eventOf(1)], async (events) => void relays.push(events.map((event) => event._id)));
    await hub.settle(); // the fake clock never moves: only starting the batch now resolves this
    expect(relays).toEqual([["evt_1"]]);
  });

  it("500 gathered events are stored at once; later ones start a new batch", async () => {
    const hub = createEventHub(() => new Date());
    const sizes: number[] = [];
    const relay = async (events: EventDoc[]) => void sizes.push(events.length);
    hub.batch(
      Array.from({ length: 499 }, (_, i) => eventOf(i)),
      relay,
    );
    hub.batch([eventOf(499), eventOf(500)], relay);
    hub.batch([eventOf(501)], relay);
    await vi.advanceTimersByTimeAsync(0);
    expect(sizes).toEqual([501]);
    await vi.advanceTimersByTimeAsync(BATCH_WINDOW_MS);
    expect(sizes).toEqual([501, 1]);
  });
});
