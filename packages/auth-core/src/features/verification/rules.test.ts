import { describe, expect, it } from "vitest";
import { readVerificationClaims, shouldAutoSignIn, withQueryParam } from "./rules.ts";

describe("readVerificationClaims", () => {
  it("reads a plain token bound to a user", () => {
    expect(readVerificationClaims({ email: "a@x.io", purpose: "verify-email", sub: "0".repeat(24) })).toEqual(
      {
        email: "a@x.io",
        userId: "0".repeat(24),
        updateTo: null,
        requestType: null,
      },
    );
  });

  it("reads a change-email confirmation with its target", () => {
    expect(
      readVerificationClaims({
        email: "a@x.io",
        purpose: "verify-email",
        updateTo: "b@x.io",
        requestType: "change-email-confirmation",
      }),
    ).toMatchObject({ updateTo: "b@x.io", requestType: "change-email-confirmation" });
  });

  it.each([
    ["no purpose (a JWT signed for something else)", { email: "a@x.io" }],
    ["another purpose", { email: "a@x.io", purpose: "session" }],
    ["a non-string email", { email: ["a@x.io"], purpose: "verify-email" }],
    ["an empty email", { email: "", purpose: "verify-email" }],
    ["a non-string sub", { email: "a@x.io", purpose: "verify-email", sub: 42 }],
    ["an unknown request type", { email: "a@x.io", purpose: "verify-email", requestType: "admin" }],
    [
      "a change type without target",
      { email: "a@x.io", purpose: "verify-email", requestType: "change-email-confirmation" },
    ],
    ["a target without change type", { email: "a@x.io", purpose: "verify-email", updateTo: "b@x.io" }],
    [
      "an object target",
      {
        email: "a@x.io",
        purpose: "verify-email",
        updateTo: { $ne: "" },
        requestType: "change-email-verification",
      },
    ],
  ])("refuses %s", (_name, payload) => {
    expect(readVerificationClaims(payload)).toBeNull();
  });
});

describe("withQueryParam", () => {
  it.each([
    ["/", "/?error=token_expired"],
    ["/done", "/done?error=token_expired"],
    ["/done?tab=1", "/done?tab=1&error=token_expired"],
    ["/done?tab=1#top", "/done?tab=1&error=token_expired#top"],
    ["/done?", "/done?error=token_expired"],
    ["http://localhost:3000/cb?x=1", "http://localhost:3000/cb?x=1&error=token_expired"],
  ])("%s → %s", (url, expected) => {
    expect(withQueryParam(url, "error", "token_expired")).toBe(expected);
  });

  it("encodes the value", () => {
    expect(withQueryParam("/a", "error", "a b&c")).toBe("/a?error=a%20b%26c");
  });
});

describe("shouldAutoSignIn", () => {
  const base = { enabled: true, requestType: null, becameVerified: true, signedIn: false } as const;
  it("signs in on the first verification of a plain token for a visitor", () => {
    expect(shouldAutoSignIn(base)).toBe(true);
  });
  it.each([
    ["the option is off", { enabled: false }],
    ["the address was already verified (a replayed link)", { becameVerified: false }],
    ["someone is signed in (no silent session swap)", { signedIn: true }],
    [
      "the address was just moved by an email change (#7196)",
      { requestType: "post-change-verification" as const },
    ],
    ["the token is a change-email link", { requestType: "change-email-verification" as const }],
  ])("does not when %s", (_name, change) => {
    expect(shouldAutoSignIn({ ...base, ...change })).toBe(false);
  });
});
