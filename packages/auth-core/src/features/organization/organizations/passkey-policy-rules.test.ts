import { describe, expect, it } from "vitest";
import type { PasskeyPolicy } from "../../../contracts/organization-passkey-policy.ts";
import {
  checkPasskeyPolicy,
  DEFAULT_PASSKEY_POLICY,
  isPolicyEmpty,
  judgePasskey,
  type PolicyPasskey,
} from "./passkey-policy-rules.ts";

const KEY = "fa2b99dc-9e39-4257-8f92-4a30d23c4118";
const PHONE = "ea9b8d66-4d01-1d21-3ce4-b6b48cb575d4";

const passkey = (aaguid: string | null, uvInitialized: boolean): PolicyPasskey => ({
  id: "p",
  name: null,
  aaguid,
  authenticatorName: null,
  uvInitialized,
});
const policy = (mode: PasskeyPolicy["mode"], requireUserVerification = false): PasskeyPolicy => ({
  requireUserVerification,
  mode,
  aaguids: [KEY],
});

describe("judgePasskey", () => {
  it.each([
    ["any model, no UV", policy("any"), passkey(PHONE, false), null],
    ["listed model on an allow-list", policy("allow-list"), passkey(KEY, false), null],
    ["unlisted model on an allow-list", policy("allow-list"), passkey(PHONE, true), "authenticator"],
    ["no model on an allow-list", policy("allow-list"), passkey(null, true), "authenticator"],
    ["listed model on a deny-list", policy("deny-list"), passkey(KEY, true), "authenticator"],
    ["no model on a deny-list", policy("deny-list"), passkey(null, true), null],
    ["UV required, never verified", policy("any", true), passkey(KEY, false), "user-verification"],
    ["UV first when both fail", policy("allow-list", true), passkey(PHONE, false), "user-verification"],
    ["UV required and verified", policy("allow-list", true), passkey(KEY, true), null],
  ] as const)("%s", (_, given, key, reason) => {
    expect(judgePasskey(given, key)).toMatchObject({ fits: reason === null, reason });
  });
});

describe("checkPasskeyPolicy", () => {
  it("the default asks nothing: satisfied without passkeys", () => {
    expect(isPolicyEmpty(DEFAULT_PASSKEY_POLICY)).toBe(true);
    expect(checkPasskeyPolicy(DEFAULT_PASSKEY_POLICY, []).satisfied).toBe(true);
  });

  it("a policy that asks anything needs one fitting passkey", () => {
    expect(isPolicyEmpty(policy("any", true))).toBe(false);
    expect(checkPasskeyPolicy(policy("allow-list"), []).satisfied).toBe(false);
    expect(checkPasskeyPolicy(policy("allow-list"), [passkey(PHONE, true)]).satisfied).toBe(false);
    expect(
      checkPasskeyPolicy(policy("allow-list"), [passkey(PHONE, true), passkey(KEY, false)]).satisfied,
    ).toBe(true);
  });
});
