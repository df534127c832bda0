import { describe, expect, it } from "vitest";
import {
  canLinkByEmail,
  canLinkToSignedInUser,
  canSignUp,
  joinScopes,
  shouldRefreshAccessToken,
  splitScopes,
  withErrorQuery,
} from "./rules.ts";

describe("canLinkByEmail (docs/decisions/ social sign-in outcome/H10)", () => {
  const verifiedUser = { emailVerified: true };
  it.each([
    ["linking on, provider verified the email, local email verified", true, false, true, verifiedUser, true],
    ["linking on, trusted provider without verification", true, true, false, verifiedUser, true],
    ["provider neither trusted nor verifying", true, false, false, verifiedUser, false],
    ["linking disabled, even for a trusted verifying provider", false, true, true, verifiedUser, false],
    ["local email never verified (pre-hijack)", true, true, true, { emailVerified: false }, false],
  ])("%s → %s", (_label, linkingEnabled, providerTrusted, providerEmailVerified, existingUser, expected) => {
    expect(canLinkByEmail({ linkingEnabled, providerTrusted, providerEmailVerified, existingUser })).toBe(
      expected,
    );
  });
});

describe("canSignUp", () => {
  it.each([
    [false, false, false, true],
    [true, false, true, false],
    [false, true, false, false],
    [false, true, true, true],
  ])(
    "disabled=%s implicitDisabled=%s requested=%s → %s",
    (signUpDisabled, implicitSignUpDisabled, requestSignUp, expected) => {
      expect(canSignUp({ signUpDisabled, implicitSignUpDisabled, requestSignUp })).toBe(expected);
    },
  );
});

describe("canLinkToSignedInUser (docs/decisions/ link: different emails only when allowed)", () => {
  const base = {
    linkingEnabled: true,
    providerTrusted: false,
    providerEmailVerified: true,
    allowDifferentEmails: false,
    userEmail: "ada@example.com",
    providerEmail: "ada@example.com",
  };
  it("links the same verified email", () => expect(canLinkToSignedInUser(base)).toBe(true));
  it("refuses a different email unless allowed", () => {
    expect(canLinkToSignedInUser({ ...base, providerEmail: "eve@example.com" })).toBe(false);
    expect(
      canLinkToSignedInUser({ ...base, providerEmail: "eve@example.com", allowDifferentEmails: true }),
    ).toBe(true);
  });
  it("refuses an unverified email from an untrusted provider", () => {
    expect(canLinkToSignedInUser({ ...base, providerEmailVerified: false })).toBe(false);
    expect(canLinkToSignedInUser({ ...base, providerEmailVerified: false, providerTrusted: true })).toBe(
      true,
    );
  });
  it("refuses everything when linking is disabled", () => {
    expect(canLinkToSignedInUser({ ...base, linkingEnabled: false })).toBe(false);
  });
});

describe("shouldRefreshAccessToken (under 5 s)", () => {
  const now = new Date("2026-01-01T00:00:00Z");
  it.each([
    [null, false],
    [new Date(now.getTime() + 4999), true],
    [new Date(now.getTime() + 5000), false],
    [new Date(now.getTime() - 1000), true],
    [new Date(now.getTime() + 3600_000), false],
  ])("expires %s → %s", (expiresAt, expected) => {
    expect(shouldRefreshAccessToken(expiresAt, now)).toBe(expected);
  });
});

describe("withErrorQuery", () => {
  it("adds error and description, keeping an existing query and fragment", () => {
    expect(withErrorQuery("/login", "no_code")).toBe("/login?error=no_code");
    expect(withErrorQuery("https://app.example.com/x?tab=1#top", "access_denied", "User said no")).toBe(
      "https://app.example.com/x?tab=1&error=access_denied&error_description=User+said+no#top",
    );
  });
});

describe("scopes are stored comma separated", () => {
  it("joins unique scopes and splits them back", () => {
    expect(joinScopes(["openid", "email", "openid", " "])).toBe("openid,email");
    expect(joinScopes([])).toBeNull();
    expect(splitScopes("openid,email")).toEqual(["openid", "email"]);
    expect(splitScopes(null)).toEqual([]);
  });
});
