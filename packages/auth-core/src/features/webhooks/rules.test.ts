import { describe, expect, it } from "vitest";
import { ObjectId } from "../../db/ids.ts";
import {
  DISABLE_AFTER_FAILING_MS,
  deliveryIdOf,
  endpointWantsEvent,
  findNextAttemptAt,
  isFailingTooLong,
  liveSecrets,
  RETRY_DELAYS_MS,
} from "./rules.ts";

/** The delivery rules of docs/decisions/0020-webhooks.md, as a table. */

const T0 = new Date("2026-11-29T08:00:00Z");
const at = (ms: number) => new Date(T0.getTime() + ms);
const H = 3_600_000;

describe("webhook rules", () => {
  it("retries after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h and 24 h, then gives up after about 3 days", () => {
    expect(RETRY_DELAYS_MS).toEqual([
      5_000,
      300_000,
      1_800_000,
      2 * H,
      5 * H,
      10 * H,
      14 * H,
      20 * H,
      24 * H,
    ]);
    expect(findNextAttemptAt(1, T0)).toEqual(at(5_000));
    expect(findNextAttemptAt(9, T0)).toEqual(at(24 * H));
    expect(findNextAttemptAt(10, T0)).toBeNull();
    const total = RETRY_DELAYS_MS.reduce((sum, delay) => sum + delay, 0);
    expect(total / H).toBeCloseTo(75.6, 1);
  });

  it("disables an endpoint after five days of failures, not a moment before", () => {
    expect(DISABLE_AFTER_FAILING_MS).toBe(120 * H);
    expect(isFailingTooLong(null, at(1000 * H))).toBe(false);
    expect(isFailingTooLong(T0, at(120 * H - 1))).toBe(false);
    expect(isFailingTooLong(T0, at(120 * H))).toBe(true);
  });

  it("signs with the current secret and a rotated one until its overlap ends", () => {
    const current = { secret: "new", expiresAt: null };
    const previous = { secret: "old", expiresAt: at(24 * H) };
    expect(liveSecrets([current, previous], at(24 * H - 1))).toEqual([current, previous]);
    expect(liveSecrets([current, previous], at(24 * H))).toEqual([current]);
  });

  it("an endpoint wants the events of its types, its organization and its lifetime", () => {
    const org = new ObjectId();
    const endpoint = {
      organizationId: org as ObjectId | null,
      eventTypes: ["member.added"],
      enabled: true,
      createdAt: T0,
    };
    const event = { type: "member.added", organizationId: org.toHexString() as string | null, createdAt: T0 };
    const cases: [Partial<typeof endpoint>, Partial<typeof event>, boolean][] = [
      [{}, {}, true],
      [{}, { type: "member.removed" }, false],
      [{ eventTypes: [] }, { type: "member.removed" }, true],
      [{}, { organizationId: new ObjectId().toHexString() }, false],
      [{}, { organizationId: null }, false],
      [{ organizationId: null }, { organizationId: new ObjectId().toHexString() }, true],
      [{ enabled: false }, {}, false],
      [{}, { createdAt: at(-1) }, false],
    ];
    for (const [endpointChange, eventChange, wanted] of cases)
      expect(endpointWantsEvent({ ...endpoint, ...endpointChange }, { ...event, ...eventChange })).toBe(
        wanted,
      );
  });

  it("one event to one endpoint has one webhook-id", () => {
    expect(deliveryIdOf("evt_0123", "6650f1c2a4e0b9d3c1a2b3c4")).toBe("msg_0123_6650f1c2a4e0b9d3c1a2b3c4");
  });
});
