import { describe, expect, it } from "vitest";
import { attemptLane, delayAfter, latestSlot, MAX_CONSECUTIVE_FAILURES, planAttempt } from "./rules.ts";

const T0 = new Date("2026-01-01T00:00:00.000Z");
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);

describe("sign-in throttle rules", () => {
  it.each([
    [0, 0],
    [4, 0],
    [5, 1],
    [6, 2],
    [10, 32],
    [13, 256],
    [14, 300],
    [99, 300],
  ])("after %i consecutive failures the next attempt waits %i s", (failures, seconds) => {
    expect(delayAfter(failures)).toBe(seconds);
  });

  it("an attacker needs about 7.3 hours to reach the limit of 100", () => {
    let total = 0;
    for (let failures = 1; failures < MAX_CONSECUTIVE_FAILURES; failures++) total += delayAfter(failures);
    expect(total / 3600).toBeGreaterThan(7);
    expect(total / 3600).toBeLessThan(8);
  });

  it("plans the first slot of an empty lane, the next one once the delay is over", () => {
    expect(planAttempt(null, T0)).toEqual({ kind: "claim", slot: 1 });
    expect(planAttempt({ slot: 4, at: T0 }, T0)).toEqual({ kind: "claim", slot: 5 });
    expect(planAttempt({ slot: 5, at: T0 }, at(0.5))).toEqual({ kind: "wait", until: at(1) });
    expect(planAttempt({ slot: 5, at: T0 }, at(1))).toEqual({ kind: "claim", slot: 6 });
    expect(planAttempt({ slot: 99, at: T0 }, at(299))).toEqual({ kind: "wait", until: at(300) });
    expect(planAttempt({ slot: 99, at: T0 }, at(300))).toEqual({ kind: "claim", slot: 100 });
  });

  it("within the free failures a slot written after the clock was read (a concurrent attempt) is no reason to wait", () => {
    expect(planAttempt({ slot: 3, at: at(0.01) }, T0)).toEqual({ kind: "claim", slot: 4 });
    expect(planAttempt({ slot: 5, at: at(0.01) }, T0)).toEqual({ kind: "wait", until: at(1.01) });
  });

  it("locks after 100 consecutive failures, however long ago", () => {
    expect(planAttempt({ slot: 100, at: T0 }, at(86_400 * 365))).toEqual({ kind: "locked" });
  });

  it("reads the highest slot of the lane, ignoring holes and other lanes' rows", () => {
    const lane = attemptLane("abc", "any");
    const rows = [
      { identifier: `${lane}2`, createdAt: at(2) },
      { identifier: `${lane}7`, createdAt: at(7) },
      { identifier: `${lane}5`, createdAt: at(5) },
      { identifier: `${lane}junk`, createdAt: at(9) },
    ];
    expect(latestSlot(rows, lane)).toEqual({ slot: 7, at: at(7) });
    expect(latestSlot([], lane)).toBeNull();
  });
});
