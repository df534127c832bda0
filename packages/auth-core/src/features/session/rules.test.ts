import { describe, expect, it } from "vitest";
import {
  isSessionExpired,
  isSessionFresh,
  type SessionTiming,
  sessionExpiry,
  shouldRefreshSession,
} from "./rules.ts";

const timing: SessionTiming = {
  expiresIn: 7 * 86400,
  updateAge: 86400,
  freshAge: 86400,
  dontRememberExpiresIn: 86400,
  disableSessionRefresh: false,
};
const t0 = new Date("2030-01-01T00:00:00Z");
const at = (seconds: number) => new Date(t0.getTime() + seconds * 1000);

describe("session rules", () => {
  it("a session is expired from its expiresAt on", () => {
    expect(isSessionExpired(at(10), at(9))).toBe(false);
    expect(isSessionExpired(at(10), at(10))).toBe(true);
  });

  it("rememberMe false gets the short lifetime", () => {
    expect(sessionExpiry(t0, false, timing)).toEqual(at(7 * 86400));
    expect(sessionExpiry(t0, true, timing)).toEqual(at(86400));
  });

  it.each([
    {
      case: "before the update age",
      age: 86399,
      dontRemember: false,
      timing,
      byRequest: false,
      refresh: false,
    },
    { case: "at the update age", age: 86400, dontRemember: false, timing, byRequest: false, refresh: true },
    {
      case: "rememberMe false",
      age: 2 * 86400,
      dontRemember: true,
      timing,
      byRequest: false,
      refresh: false,
    },
    {
      case: "disabled by the request",
      age: 2 * 86400,
      dontRemember: false,
      timing,
      byRequest: true,
      refresh: false,
    },
    {
      case: "disabled by configuration",
      age: 2 * 86400,
      dontRemember: false,
      timing: { ...timing, disableSessionRefresh: true },
      byRequest: false,
      refresh: false,
    },
    {
      case: "update age 0 refreshes on every read",
      age: 0,
      dontRemember: false,
      timing: { ...timing, updateAge: 0 },
      byRequest: false,
      refresh: true,
    },
  ])("refresh: $case → $refresh", ({ age, dontRemember, timing: given, byRequest, refresh }) => {
    // `age` is the time since the expiry was last set (a session created or extended at t0).
    const expiresAt = new Date(t0.getTime() + given.expiresIn * 1000);
    expect(shouldRefreshSession({ expiresAt, dontRemember }, at(age), given, byRequest)).toBe(refresh);
  });

  it("fresh while updated within the fresh age; a fresh age of 0 disables the rule", () => {
    expect(isSessionFresh({ updatedAt: t0 }, at(3600), 3600)).toBe(true);
    expect(isSessionFresh({ updatedAt: t0 }, at(3601), 3600)).toBe(false);
    expect(isSessionFresh({ updatedAt: t0 }, at(10 * 86400), 0)).toBe(true);
  });
});
