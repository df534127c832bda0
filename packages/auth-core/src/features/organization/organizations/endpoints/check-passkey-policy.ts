import {
  checkPasskeyPolicyContract,
  type PasskeyPolicyCheck,
} from "../../../../contracts/organization-passkey-policy.ts";
import { AuthError } from "../../../../errors/auth-error.ts";
import { defineEndpoint } from "../../../../http/define-endpoint.ts";
import { requireCaller, requireMembership, resolveOrganizationId } from "../../endpoints/guards.ts";
import { checkUserPasskeys } from "../passkey-policy.ts";

/**
 * GET /organization/check-passkey-policy: the caller's own passkeys against the named or active
 * organization's policy. A dedicated endpoint rather than a field of get-session or
 * get-active-member: those keep Better Auth's answers, and get-session (served from the cookie cache
 * on most requests) would read the passkeys on every call.
 */
export const checkPasskeyPolicy = defineEndpoint(checkPasskeyPolicyContract, {
  async handler(ctx): Promise<PasskeyPolicyCheck> {
    const { auth } = ctx;
    const caller = requireCaller(ctx.session);
    const organizationId = resolveOrganizationId(caller.session, ctx.query.organizationId);
    await requireMembership(auth, organizationId, caller.user._id);
    const check = await checkUserPasskeys(auth, organizationId, caller.user._id);
    if (!check) throw new AuthError("ORGANIZATION_NOT_FOUND");
    return check;
  },
});
