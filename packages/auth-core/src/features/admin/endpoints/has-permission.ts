import type { AuthContext } from "../../../context.ts";
import { userHasPermissionContract } from "../../../contracts/admin.ts";
import { AuthError } from "../../../errors/auth-error.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { type PermissionRequest, rolesGrant } from "../access.ts";
import { normaliseRoleInput } from "../rules.ts";
import { adminRoles, hasAdminPermission } from "../service.ts";
import { requireUserToRead } from "./guards.ts";

/**
 * POST /admin/has-permission {permissions, userId?, role?} → {error: null, success}. Over HTTP it
 * answers for the caller only (as the admin endpoints would judge them: an impersonation session
 * has no admin rights); server code (auth.api) may ask about any `userId` or `role`.
 */
export const userHasPermission = defineEndpoint(userHasPermissionContract, {
  sensitive: true,
  async handler(ctx): Promise<{ error: null; success: boolean }> {
    const { auth, body } = ctx;
    const asked = body.userId !== undefined || body.role !== undefined;
    if (asked && !ctx.isServerCall) throw new AuthError("RESOURCE_ACCESS_NOT_ALLOWED");
    if (asked) return { error: null, success: await checkNamed(auth, body) };
    const caller = ctx.session;
    if (!caller) throw new AuthError("UNAUTHORIZED");
    const success = !caller.session.impersonatedBy && hasAdminPermission(auth, caller.user, body.permissions);
    return { error: null, success };
  },
});

async function checkNamed(
  auth: AuthContext,
  body: { permissions: PermissionRequest; userId?: string; role?: string | string[] },
): Promise<boolean> {
  if (body.role !== undefined)
    return rolesGrant(adminRoles(auth), normaliseRoleInput(body.role), body.permissions);
  return hasAdminPermission(auth, await requireUserToRead(auth, body.userId!), body.permissions);
}
