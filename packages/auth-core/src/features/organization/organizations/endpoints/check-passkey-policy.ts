import {
  checkPasskeyPolicyContract,
  type PasskeyPolicyCheck,
} from "../../../../contracts/organization-passkey-policy.ts";
import { defineEndpoint } from "../../../../http/define-endpoint.ts";
import { readAsMember } from "../../endpoints/guards.ts";
import { checkUserPasskeys } from "../passkey-policy.ts";

/**
 * GET /organization/check-passkey-policy: the caller's own passkeys against the named or active
 * organization's policy. A dedicated endpoint rather than a field of get-session or
 * get-active-member: those keep Better Auth's answers, and get-session (served from the cookie cache
 * on most requests) would read the passkeys on every call.
 */
export const checkPasskeyPolicy = defineEndpoint(checkPasskeyPolicyContract, {
  handler(ctx): Promise<PasskeyPolicyCheck> {
    return readAsMember(ctx, ctx.query.organizationId, (organizationId, userId) =>
      checkUserPasskeys(ctx.auth, organizationId, userId),
    );
  },
});
