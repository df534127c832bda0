import { describe, expect, it } from "vitest";
import {
  availableMethods,
  formatBackupCode,
  lockoutWindow,
  normalizeBackupCode,
  parseChallenge,
  parseTrustValue,
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

  it("places a time in a fixed lockout window and names its end", () => {
    const at = new Date(900_000 * 3 + 5_000);
    expect(lockoutWindow(at, 900)).toEqual({ index: 3, endsAt: new Date(900_000 * 4) });
    expect(lockoutWindow(new Date(900_000 * 4), 900).index).toBe(4);
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
