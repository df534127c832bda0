import { hasPermissionContract, type PermissionCheck } from "../../../../contracts/organization.ts";
import { ERROR_CATALOGUE } from "../../../../errors/catalogue.ts";
import { defineEndpoint } from "../../../../http/define-endpoint.ts";
import { requireCaller, requireMembership, resolveOrganizationId } from "../../endpoints/guards.ts";
import { findPermissionRefusal } from "../rules.ts";
import { roleTableOf } from "../service.ts";

/**
 * Whether the caller's roles grant every requested action (the permission rules (docs/guide.md "Organizations"); `permission` is the old name).
 * A refusal is an answer, not an error: `success: false` with the access-control message of the error catalogue
 * as `error` (Better Auth's shape).
 */
export const hasOrganizationPermission = defineEndpoint(hasPermissionContract, {
  async handler(ctx): Promise<PermissionCheck> {
    const { auth, body } = ctx;
    const caller = requireCaller(ctx.session);
    const organizationId = resolveOrganizationId(caller.session, body.organizationId);
    const member = await requireMembership(auth, organizationId, caller.user._id);
    const request = body.permissions ?? body.permission ?? {};
    const refusal = findPermissionRefusal(member.role, request, roleTableOf(auth));
    return { error: refusal && ERROR_CATALOGUE[refusal].message, success: refusal === null };
  },
});
