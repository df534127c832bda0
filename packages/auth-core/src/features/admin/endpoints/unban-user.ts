import { z } from "zod";
import { AuthError } from "../../../errors/auth-error.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { unbanUser } from "../ban-service.ts";
import { type AdminUser, toAdminUser } from "../rules.ts";
import { userIdField } from "../schemas.ts";
import { auditSource, findUserToManage, recordAuditEvent, requireAdminPermission } from "../service.ts";

/** POST /admin/unban-user {userId}: clears the ban; the user can sign in again. */
export const unbanUserEndpoint = defineEndpoint({
  name: "unbanUser",
  method: "POST",
  path: "/admin/unban-user",
  auth: "session",
  sensitive: true,
  body: z.strictObject({ userId: userIdField }),
  async handler(ctx): Promise<{ user: AdminUser }> {
    const { auth } = ctx;
    const caller = requireAdminPermission(auth, ctx.session, { user: ["ban"] });
    const target = await findUserToManage(auth, caller, ctx.body.userId);
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
