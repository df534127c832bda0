import { getUserContract } from "../../../contracts/admin.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { type AdminUser, toAdminUser } from "../rules.ts";
import { requireAdminPermission, requireUserToRead } from "./guards.ts";

/**
 * GET /admin/get-user?id — one user with role and ban state; 404 when there is none. A read of what
 * list-users shows of every user, so no may-manage rule (requireUserToRead).
 */
export const getUser = defineEndpoint(getUserContract, {
  sensitive: true,
  async handler(ctx): Promise<AdminUser> {
    const { auth } = ctx;
    requireAdminPermission(auth, ctx.session, { user: ["get"] });
    const user = await requireUserToRead(auth, ctx.query.id);
    return toAdminUser(user, auth.options.admin.defaultRole);
  },
});
