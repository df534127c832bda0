import { describe, expect, it } from "vitest";
import { decideAdmission, enterWindow, takeSlot, type WindowState } from "./rate-limit-window.ts";

const rule = { window: 10, max: 3 };
// A window boundary: 1_700_000_000 s is a multiple of 10.
const at = (seconds: number) => 1_700_000_000_000 + seconds * 1000;

/** Admits at each time in turn (as one process would), returning the final state. */
function admitAll(times: number[], state?: WindowState): WindowState {
  let current = state;
  for (const time of times) {
    current = enterWindow(current, rule, at(time));
    expect(decideAdmission(current, rule, at(time))).toEqual({ allowed: true });
    takeSlot(current, rule, at(time));
  }
  return current!;
}

describe("enterWindow", () => {
  it("keeps the state within one window and hands out slots in order", () => {
    const state = admitAll([0, 1]);
    expect(enterWindow(state, rule, at(9.9))).toBe(state);
    expect(state.next).toBe(3);
  });

  it("carries the current window's admissions over to the next one, and marks older rows for deletion after that", () => {
    const first = admitAll([1, 2]);
    const second = enterWindow(first, rule, at(10));
    expect(second).toMatchObject({ next: 1, previous: [at(11), at(12)], current: [], hasOlderRows: false });
    const third = enterWindow(admitAll([15], second), rule, at(20));
    expect(third).toMatchObject({ previous: [at(25)], hasOlderRows: true });
  });

  it("forgets the admissions of a window that is over 10 s behind, and marks their rows for deletion", () => {
    const later = enterWindow(admitAll([1]), rule, at(25));
    expect(later).toMatchObject({ next: 1, previous: [], current: [], hasOlderRows: true });
    expect(enterWindow(undefined, rule, at(25)).hasOlderRows).toBe(false);
  });
});

describe("decideAdmission (the sliding log over two windows)", () => {
  it.each([
    // [admissions, request time, decision]
    [[0, 1, 2], 3, { allowed: false, retryAfterSeconds: 7 }],
    [[0, 1, 2], 10, { allowed: true }],
    [[0, 1, 2], 10.5, { allowed: true }],
    [[8, 9, 9.5], 10.5, { allowed: false, retryAfterSeconds: 8 }],
    [[8, 9, 9.5], 18, { allowed: true }],
    [[6, 9, 12], 15, { allowed: false, retryAfterSeconds: 1 }],
    [[6, 9, 12], 16, { allowed: true }],
  ])("after %j, a request at %s s → %j", (admissions, time, decision) => {
    const state = enterWindow(admitAll(admissions), rule, at(time));
    expect(decideAdmission(state, rule, at(time))).toEqual(decision);
  });

  it("waits for the window's end when a slot was taken elsewhere at a time it never learned", () => {
    const state = enterWindow(undefined, rule, at(1));
    state.next = 4;
    expect(decideAdmission(state, rule, at(1))).toEqual({ allowed: false, retryAfterSeconds: 9 });
  });
});
