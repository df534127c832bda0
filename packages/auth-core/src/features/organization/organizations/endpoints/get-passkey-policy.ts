import {
  getPasskeyPolicyContract,
  type PasskeyPolicy,
} from "../../../../contracts/organization-passkey-policy.ts";
import { AuthError } from "../../../../errors/auth-error.ts";
import { defineEndpoint } from "../../../../http/define-endpoint.ts";
import { requireCaller, requireMembership, resolveOrganizationId } from "../../endpoints/guards.ts";
import { findPasskeyPolicy } from "../passkey-policy.ts";

/** GET /organization/get-passkey-policy: any member reads it (they are the ones it asks for a passkey). */
export const getPasskeyPolicy = defineEndpoint(getPasskeyPolicyContract, {
  async handler(ctx): Promise<PasskeyPolicy> {
    const { auth } = ctx;
    const caller = requireCaller(ctx.session);
    const organizationId = resolveOrganizationId(caller.session, ctx.query.organizationId);
    await requireMembership(auth, organizationId, caller.user._id);
    const policy = await findPasskeyPolicy(auth, organizationId);
    if (!policy) throw new AuthError("ORGANIZATION_NOT_FOUND");
    return policy;
  },
});
