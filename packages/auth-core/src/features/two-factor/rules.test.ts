import { describe, expect, it } from "vitest";
import {
  availableMethods,
  formatBackupCode,
  lockSeconds,
  normalizeBackupCode,
  parseChallenge,
  parseTrustValue,
  planFailureSlots,
  serializeChallenge,
  totpReplayExpiry,
} from "./rules.ts";

describe("two-factor rules", () => {
  it("round-trips a challenge payload and refuses anything else", () => {
    const payload = { userId: "a".repeat(24), dontRemember: true };
    expect(parseChallenge(serializeChallenge(payload))).toEqual(payload);
    for (const bad of ["", "null", "[]", "{", '{"userId":1,"dontRemember":true}', '{"userId":"x"}']) {
      expect(parseChallenge(bad)).toBeNull();
    }
  });

  it("doubles the lock at each run of failures: 15 min, 30 min, 1 h", () => {
    expect([1, 2, 3].map((step) => lockSeconds(step, 900))).toEqual([900, 1800, 3600]);
  });

  it("plans failure slots: the free ones of the current run, a lock between runs, a hard lock at max", () => {
    const config = { perStep: 10, firstLock: 900, max: 100 };
    const at = (seconds: number) => new Date(seconds * 1000);
    const taken = (count: number, when: Date) =>
      new Map(Array.from({ length: count }, (_, i) => [i + 1, when] as const));
    expect(planFailureSlots(new Map(), at(0), config)).toEqual({
      kind: "claim",
      slots: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
      nextLock: 900,
    });
    // Never past the run's end, even with a gap below.
    const gap = taken(8, at(0));
    gap.delete(3);
    expect(planFailureSlots(gap, at(0), config)).toEqual({ kind: "claim", slots: [3, 9, 10], nextLock: 900 });
    expect(planFailureSlots(taken(10, at(100)), at(999), config)).toEqual({
      kind: "locked",
      until: at(1000),
    });
    expect(planFailureSlots(taken(10, at(100)), at(1000), config)).toMatchObject({
      slots: [11, 12, 13, 14, 15, 16, 17, 18, 19, 20],
      nextLock: 1800,
    });
    expect(planFailureSlots(taken(20, at(100)), at(1899), config)).toEqual({
      kind: "locked",
      until: at(1900),
    });
    expect(planFailureSlots(taken(90, at(0)), at(10 ** 9), config)).toMatchObject({ nextLock: null });
    expect(planFailureSlots(taken(100, at(0)), at(10 ** 9), config)).toEqual({ kind: "hard-locked" });
  });

  it("keeps a used TOTP step refused until no verifier window can accept it any more", () => {
    // Step 100 is accepted while now is in steps 99..101 (window 1): until the end of step 101.
    expect(totpReplayExpiry(100, 1, 30)).toEqual(new Date(102 * 30_000));
    expect(totpReplayExpiry(100, 0, 30)).toEqual(new Date(101 * 30_000));
  });

  it("reads backup codes typed with or without the dash, in any case, with spaces", () => {
    expect(normalizeBackupCode(" AbCde-12345 ")).toBe("abcde12345");
    expect(normalizeBackupCode("abcde 12345")).toBe("abcde12345");
    expect(formatBackupCode("abcde12345")).toBe("abcde-12345");
  });

  it("offers OTP only when it is enabled", () => {
    expect(availableMethods(true)).toEqual(["totp", "otp"]);
    expect(availableMethods(false)).toEqual(["totp"]);
  });

  it("parses a trusted-device value: a 24-hex user id and a 32-character id", () => {
    const userId = "0123456789abcdef01234567";
    const trustId = "A".repeat(32);
    expect(parseTrustValue(`${userId}.${trustId}`)).toEqual({ userId, trustId });
    expect(parseTrustValue(`${userId}.${trustId}x`)).toBeNull();
    expect(parseTrustValue(`${userId.slice(1)}.${trustId}`)).toBeNull();
    expect(parseTrustValue(`${userId}:${trustId}`)).toBeNull();
  });
});
