import type { AuthContext } from "../../../context.ts";
import type { PasskeyPolicy, PasskeyPolicyCheck } from "../../../contracts/organization-passkey-policy.ts";
import type { ObjectId } from "../../../db/ids.ts";
import { listPasskeyFacts } from "../../passkey/index.ts";
import { checkPasskeyPolicy, passkeyPolicyOf } from "./passkey-policy-rules.ts";
import * as store from "./store.ts";

/**
 * An organization's authenticator policy (docs/passkeys.md "Authenticator policy"), kept on the
 * organization's document. It advises, it does not refuse: a passkey belongs to a user, who may be
 * a member of several organizations, so a policy never blocks a registration or a sign-in; it tells
 * the app which members to ask for a passkey that fits.
 */

/** The policy as stored; null when the organization is gone. */
export async function replacePasskeyPolicy(
  auth: AuthContext,
  organizationId: ObjectId,
  policy: PasskeyPolicy,
): Promise<PasskeyPolicy | null> {
  const updated = await store.setOrganizationPasskeyPolicy(auth.collections, organizationId, policy);
  return updated ? passkeyPolicyOf(updated.passkeyPolicy) : null;
}

/** The organization's policy (the default when it never set one); null when the organization is gone. */
export async function findPasskeyPolicy(
  auth: AuthContext,
  organizationId: ObjectId,
): Promise<PasskeyPolicy | null> {
  const organization = await store.findOrganizationById(auth.collections, organizationId);
  return organization ? passkeyPolicyOf(organization.passkeyPolicy) : null;
}

/** The user's passkeys judged against the organization's policy; null when the organization is gone. */
export async function checkUserPasskeys(
  auth: AuthContext,
  organizationId: ObjectId,
  userId: ObjectId,
): Promise<PasskeyPolicyCheck | null> {
  const [policy, passkeys] = await Promise.all([
    findPasskeyPolicy(auth, organizationId),
    listPasskeyFacts(auth, userId),
  ]);
  return policy ? checkPasskeyPolicy(policy, passkeys) : null;
}
