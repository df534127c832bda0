import { unbanUserContract } from "../../../contracts/admin.ts";
import { AuthError } from "../../../errors/auth-error.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { unbanUser } from "../ban-service.ts";
import { type AdminUser, toAdminUser } from "../rules.ts";
import { auditSource, recordAuditEvent } from "../service.ts";
import { requireAdminPermission, requireUserToManage } from "./guards.ts";

/** POST /admin/unban-user {userId}: clears the ban; the user can sign in again. */
export const unbanUserEndpoint = defineEndpoint(unbanUserContract, {
  sensitive: true,
  async handler(ctx): Promise<{ user: AdminUser }> {
    const { auth } = ctx;
    const caller = requireAdminPermission(auth, ctx.session, { user: ["ban"] });
    const target = await requireUserToManage(auth, caller, ctx.body.userId);
    const unbanned = await unbanUser(auth, target);
    if (!unbanned) throw new AuthError("FAILED_TO_UPDATE_USER");
    await recordAuditEvent(auth, {
      action: "user.unban",
      actorId: caller.user._id,
      subjectId: target._id,
      ...auditSource(ctx),
    });
    return { user: toAdminUser(unbanned, auth.options.admin.defaultRole) };
  },
});
