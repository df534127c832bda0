import {
  type PasskeyPolicy,
  setPasskeyPolicyContract,
} from "../../../../contracts/organization-passkey-policy.ts";
import { AuthError } from "../../../../errors/auth-error.ts";
import { defineEndpoint } from "../../../../http/define-endpoint.ts";
import {
  assertPermission,
  requireCaller,
  requireMembership,
  resolveRequestOrganizationId,
} from "../../endpoints/guards.ts";
import { replacePasskeyPolicy } from "../passkey-policy.ts";

/** POST /organization/set-passkey-policy: whoever may update the organization (owners by default) sets it. */
export const setPasskeyPolicy = defineEndpoint(setPasskeyPolicyContract, {
  sensitive: true,
  fieldErrors: { aaguids: "INVALID_AAGUID" },
  async handler(ctx): Promise<PasskeyPolicy> {
    const { auth, body } = ctx;
    const caller = requireCaller(ctx.session);
    const organizationId = await resolveRequestOrganizationId(ctx, body.organizationId);
    const member = await requireMembership(auth, organizationId, caller.user._id);
    assertPermission(auth, member, { organization: ["update"] }, "ORGANIZATION_UPDATE_NOT_ALLOWED");
    const { requireUserVerification, mode, aaguids } = body;
    const policy = await replacePasskeyPolicy(auth, organizationId, {
      requireUserVerification,
      mode,
      aaguids,
    });
    if (!policy) throw new AuthError("ORGANIZATION_NOT_FOUND");
    return policy;
  },
});
