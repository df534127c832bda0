import type {
  PasskeyFit,
  PasskeyPolicy,
  PasskeyPolicyCheck,
} from "../../../contracts/organization-passkey-policy.ts";

/**
 * Pure decisions of an organization's authenticator policy (docs/passkeys.md "Authenticator
 * policy"): which passkeys fit it, and whether a member is asked to add one that does.
 */

/**
 * What an organization that never set a policy has: any model, user verification not required.
 * @internal Exported for its unit test (passkey-policy-rules.test.ts).
 */
export const DEFAULT_PASSKEY_POLICY: PasskeyPolicy = {
  requireUserVerification: false,
  mode: "any",
  aaguids: [],
};

/** The stored policy, or the default for an organization that never set one. */
export function passkeyPolicyOf(stored: PasskeyPolicy | undefined): PasskeyPolicy {
  return stored ?? DEFAULT_PASSKEY_POLICY;
}

/**
 * A policy that asks nothing: every member satisfies it, with or without passkeys.
 * @internal Exported for its unit test (passkey-policy-rules.test.ts).
 */
export function isPolicyEmpty(policy: PasskeyPolicy): boolean {
  return !policy.requireUserVerification && policy.mode === "any";
}

/** What a passkey shows the policy: its model, and whether its authenticator ever verified the user. */
export interface PolicyPasskey {
  id: string;
  name: string | null;
  aaguid: string | null;
  authenticatorName: string | null;
  uvInitialized: boolean;
}

/**
 * Whether one passkey fits. A passkey whose authenticator does not name its model (no AAGUID) fits
 * no allow-list, and fits a deny-list: an unknown model is neither listed nor refused by name.
 * @internal Exported for its unit test (passkey-policy-rules.test.ts).
 */
export function judgePasskey(policy: PasskeyPolicy, passkey: PolicyPasskey): PasskeyFit {
  const { uvInitialized, ...shown } = passkey;
  const listed = passkey.aaguid !== null && policy.aaguids.includes(passkey.aaguid);
  const modelRefused = policy.mode === "allow-list" ? !listed : policy.mode === "deny-list" && listed;
  const reason =
    policy.requireUserVerification && !uvInitialized
      ? "user-verification"
      : modelRefused
        ? "authenticator"
        : null;
  return { ...shown, fits: reason === null, reason };
}

/**
 * A member satisfies the policy when it asks nothing, or when at least one of their passkeys fits:
 * a member with no fitting passkey (none at all included) is asked to add one that does.
 */
export function checkPasskeyPolicy(policy: PasskeyPolicy, passkeys: PolicyPasskey[]): PasskeyPolicyCheck {
  const judged = passkeys.map((passkey) => judgePasskey(policy, passkey));
  return {
    satisfied: isPolicyEmpty(policy) || judged.some((passkey) => passkey.fits),
    policy,
    passkeys: judged,
  };
}
