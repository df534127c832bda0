import { describe, expect, it } from "vitest";
import {
  isPasswordResetEnabled,
  isResetTokenShaped,
  resetLinkMinutes,
  resetPasswordIdentifier,
  withQueryParam,
} from "./rules.ts";

describe("withQueryParam", () => {
  it.each([
    ["/", "/?token=abc"],
    ["/reset", "/reset?token=abc"],
    ["/reset?lang=en", "/reset?lang=en&token=abc"],
    ["/reset?token=old&lang=en", "/reset?token=abc&lang=en"],
    ["/reset#form", "/reset?token=abc#form"],
    ["/reset?lang=en#form", "/reset?lang=en&token=abc#form"],
    ["http://localhost:3000/reset", "http://localhost:3000/reset?token=abc"],
    ["https://app.example.com/a/b?x=1", "https://app.example.com/a/b?x=1&token=abc"],
  ])("sets the parameter on %s", (url, expected) => {
    expect(withQueryParam(url, "token", "abc")).toBe(expected);
  });

  it("encodes the value", () => {
    expect(withQueryParam("/r", "error", "a b&c")).toBe("/r?error=a+b%26c");
  });
});

describe("isResetTokenShaped", () => {
  it.each([
    ["aB3dE5gH9jK1mN2pQ4rS6tU8", true],
    ["aB3dE5gH9jK1mN2pQ4rS6tU", false],
    ["aB3dE5gH9jK1mN2pQ4rS6tU88", false],
    ["aB3dE5gH9jK1mN2pQ4rS6tU-", false],
    ["", false],
    ["../../../../etc/passwd000", false],
  ])("%s → %s", (token, expected) => {
    expect(isResetTokenShaped(token)).toBe(expected);
  });
});

describe("reset token rules", () => {
  it("stores tokens under the identifier, with the token's SHA-256 in place of the token (E5)", () => {
    // SHA-256("abc") in base64url: the FIPS 180-2 test vector ba7816bf…f20015ad.
    expect(resetPasswordIdentifier("abc")).toBe("reset-password:ungWv48Bz-pBQUDeXa4iI7ADYaOWF3qctBD_YfIAFa0");
    expect(resetPasswordIdentifier("abc")).not.toContain(":abc");
  });

  it.each([
    [3600, 60],
    [90, 1],
    [30, 1],
    [7199, 119],
  ])("a %i s lifetime is stated as %i minutes", (seconds, minutes) => {
    expect(resetLinkMinutes(seconds)).toBe(minutes);
  });

  it.each([
    [true, true, true],
    [true, false, false],
    [false, true, false],
    [false, false, false],
  ])("enabled %s, resetPasswordEnabled %s → %s", (enabled, resetPasswordEnabled, expected) => {
    expect(isPasswordResetEnabled({ enabled, resetPasswordEnabled })).toBe(expected);
  });
});
