import { describe, expect, it } from "vitest";
import {
  appendErrorParam,
  chooseDeletePath,
  deleteAccountIdentifier,
  USER_TOKEN_IDENTIFIER,
} from "./rules.ts";

describe("chooseDeletePath", () => {
  it.each([
    // hasToken, hasPassword, sendsVerificationEmail → path
    [true, false, false, "consume-token"],
    [true, true, true, "consume-token"],
    [false, false, true, "send-email"],
    [false, true, true, "send-email"],
    [false, true, false, "delete"],
    [false, false, false, "require-fresh-session"],
  ] as const)(
    "token %s, password %s, email flow %s → %s",
    (hasToken, hasPassword, sendsVerificationEmail, path) => {
      expect(chooseDeletePath({ hasToken, hasPassword, sendsVerificationEmail })).toBe(path);
    },
  );
});

describe("appendErrorParam", () => {
  it.each([
    ["/", "/?error=INVALID_TOKEN"],
    ["/goodbye?from=mail#top", "/goodbye?from=mail&error=INVALID_TOKEN#top"],
    ["/goodbye?error=OLD", "/goodbye?error=INVALID_TOKEN"],
    ["https://app.example.com/bye", "https://app.example.com/bye?error=INVALID_TOKEN"],
  ])("%s → %s", (callbackURL, expected) => {
    expect(appendErrorParam(callbackURL, "INVALID_TOKEN")).toBe(expected);
  });
});

describe("delete-account identifiers", () => {
  it("uses the SPEC §3 form and matches only user-bound token kinds", () => {
    expect(deleteAccountIdentifier("abc")).toBe("delete-account-abc");
    expect(USER_TOKEN_IDENTIFIER.test("delete-account-abc")).toBe(true);
    expect(USER_TOKEN_IDENTIFIER.test("reset-password:abc")).toBe(true);
    expect(USER_TOKEN_IDENTIFIER.test("oauth-state:abc")).toBe(false);
    expect(USER_TOKEN_IDENTIFIER.test("x-delete-account-abc")).toBe(false);
  });
});
