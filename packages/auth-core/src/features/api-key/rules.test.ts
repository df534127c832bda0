import { describe, expect, it } from "vitest";
import {
  checkExpiresIn,
  checkKeyState,
  currentUsagePeriod,
  findServerOnlyFields,
  hashApiKey,
  hasPermissions,
  keyStart,
  usageClaimId,
} from "./rules.ts";

const T0 = new Date("2026-01-01T00:00:00Z");
const at = (ms: number) => new Date(T0.getTime() + ms);
const KEY = "0123456789abcdef01234567";

describe("hashApiKey / keyStart", () => {
  it("is SHA-256 in base64url (FIPS 180-2 'abc' vector)", () => {
    expect(hashApiKey("abc")).toBe("ungWv48Bz-pBQUDeXa4iI7ADYaOWF3qctBD_YfIAFa0");
  });
  it("keeps the first characters only, or none", () => {
    expect(keyStart("tess_abcdef", 6)).toBe("tess_a");
    expect(keyStart("tess_abcdef", 0)).toBeNull();
  });
});

describe("findServerOnlyFields", () => {
  it("names limits, permissions and userId when present, even as null", () => {
    expect(findServerOnlyFields({ name: "a", prefix: "p", metadata: {}, expiresIn: 1 })).toEqual([]);
    expect(findServerOnlyFields({ remaining: null, permissions: {}, userId: "x", name: "a" })).toEqual([
      "userId",
      "remaining",
      "permissions",
    ]);
  });
});

describe("checkExpiresIn", () => {
  const bounds = { minExpiresIn: 86400, maxExpiresIn: 365 * 86400 };
  it.each([
    [86399, "API_KEY_EXPIRES_IN_TOO_SMALL"],
    [86400, null],
    [365 * 86400, null],
    [365 * 86400 + 1, "API_KEY_EXPIRES_IN_TOO_LARGE"],
  ])("%i s → %s", (seconds, expected) => {
    expect(checkExpiresIn(seconds, bounds)).toBe(expected);
  });
});

describe("checkKeyState", () => {
  it.each([
    [{ enabled: true, expiresAt: null }, null],
    [{ enabled: true, expiresAt: at(1) }, null],
    [{ enabled: true, expiresAt: at(0) }, "API_KEY_EXPIRED"],
    [{ enabled: false, expiresAt: at(-1) }, "API_KEY_DISABLED"],
  ])("%o → %s", (key, expected) => {
    expect(checkKeyState(key, T0)).toBe(expected);
  });
});

describe("hasPermissions", () => {
  const granted = { files: ["read", "write"], billing: ["read"] };
  it.each([
    [{}, true],
    [{ files: ["read"] }, true],
    [{ files: ["read", "write"], billing: ["read"] }, true],
    [{ files: ["delete"] }, false],
    [{ users: ["read"] }, false],
    // Mixes of held and unheld actions: one unheld action refuses the whole request (issue 35).
    [{ files: ["read", "delete"] }, false],
    [{ files: ["delete", "read"] }, false],
    [{ files: ["read", "write", "delete"] }, false],
    [{ files: ["read"], billing: ["read", "write"] }, false],
    [{ files: ["read"], users: ["read"] }, false],
    [{ users: ["read"], billing: ["read"] }, false],
    [{ files: [] }, true],
    [{ toString: ["read"] }, false],
    [JSON.parse('{"__proto__":["read"]}'), false],
  ])("%o → %s", (required, expected) => {
    expect(hasPermissions(granted, required as Record<string, string[]>)).toBe(expected);
  });
  it("a key granted files:read alone is refused files:read+delete", () => {
    expect(hasPermissions({ files: ["read"] }, { files: ["read"] })).toBe(true);
    expect(hasPermissions({ files: ["read"] }, { files: ["read", "delete"] })).toBe(false);
  });
  it("a key without permissions passes only an empty requirement", () => {
    expect(hasPermissions(null, {})).toBe(true);
    expect(hasPermissions(null, { files: ["read"] })).toBe(false);
  });
});

describe("currentUsagePeriod", () => {
  const limited = { remaining: 5, refillAmount: null, refillInterval: null, usageResetAt: T0 };
  const refilled = { remaining: 5, refillAmount: 3, refillInterval: 60_000, usageResetAt: T0 };
  it("is null when unlimited", () => {
    expect(currentUsagePeriod(KEY, { ...limited, remaining: null }, at(0))).toBeNull();
  });
  it("without refill: one period, the remaining budget, no end", () => {
    expect(currentUsagePeriod(KEY, limited, at(10 ** 9))).toEqual({
      claimPrefix: `${KEY}|${T0.getTime()}|0|`,
      budget: 5,
      endsAt: null,
    });
  });
  it.each([
    [0, 0, 5],
    [59_999, 0, 5],
    [60_000, 1, 3],
    [185_000, 3, 3],
  ])("with refill, %i ms after the start: period %i with budget %i", (elapsed, period, budget) => {
    expect(currentUsagePeriod(KEY, refilled, at(elapsed))).toEqual({
      claimPrefix: `${KEY}|${T0.getTime()}|${period}|`,
      budget,
      endsAt: at((period + 1) * 60_000),
    });
  });
  it("a clock before the budget's start stays in period 0", () => {
    expect(currentUsagePeriod(KEY, refilled, at(-5000))?.budget).toBe(5);
  });
  it("claim ids sort numerically", () => {
    expect(usageClaimId("p|", 9) < usageClaimId("p|", 10)).toBe(true);
    expect(usageClaimId("p|", 7)).toBe("p|000000000007");
  });
});
