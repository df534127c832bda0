import { banUserContract } from "../../../contracts/admin.ts";
import { AuthError } from "../../../errors/auth-error.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { banUser } from "../ban-service.ts";
import { type AdminUser, toAdminUser } from "../rules.ts";
import { auditSource, recordAuditEvent } from "../service.ts";
import { requireAdminPermission, requireUserToManage } from "./guards.ts";

/**
 * POST /admin/ban-user {userId, banReason?, banExpiresIn? (seconds)}: bans and deletes every session
 * of the user at once (docs/decisions/0013-admin.md "Admin"). Without banExpiresIn the ban lasts until unban-user
 * (or `admin.defaultBanExpiresIn`).
 */
export const banUserEndpoint = defineEndpoint(banUserContract, {
  sensitive: true,
  async handler(ctx): Promise<{ user: AdminUser }> {
    const { auth, body } = ctx;
    const caller = requireAdminPermission(auth, ctx.session, { user: ["ban"] });
    const target = await requireUserToManage(auth, caller, body.userId);
    if (target._id.equals(caller.user._id)) throw new AuthError("CANNOT_BAN_YOURSELF");
    const banned = await banUser(auth, target, body.banReason, body.banExpiresIn);
    if (!banned) throw new AuthError("FAILED_TO_UPDATE_USER");
    await recordAuditEvent(auth, {
      action: "user.ban",
      actorId: caller.user._id,
      subjectId: target._id,
      reason: banned.banReason ?? null,
      details: { banExpires: banned.banExpires ?? null },
      ...auditSource(ctx),
    });
    return { user: toAdminUser(banned, auth.options.admin.defaultRole) };
  },
});
