import { z } from "zod";
import { AuthError } from "../../../errors/auth-error.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { banUser } from "../ban-service.ts";
import { type AdminUser, toAdminUser } from "../rules.ts";
import { banExpiresInField, reasonField, userIdField } from "../schemas.ts";
import { auditSource, findUserToManage, recordAuditEvent, requireAdminPermission } from "../service.ts";

/**
 * POST /admin/ban-user {userId, banReason?, banExpiresIn? (seconds)}: bans and deletes every session
 * of the user at once (DECISIONS.md "Admin"). Without banExpiresIn the ban lasts until unban-user
 * (or `admin.defaultBanExpiresIn`).
 */
export const banUserEndpoint = defineEndpoint({
  name: "banUser",
  method: "POST",
  path: "/admin/ban-user",
  auth: "session",
  sensitive: true,
  body: z.strictObject({
    userId: userIdField,
    banReason: reasonField.optional(),
    banExpiresIn: banExpiresInField.optional(),
  }),
  async handler(ctx): Promise<{ user: AdminUser }> {
    const { auth, body } = ctx;
    const caller = requireAdminPermission(auth, ctx.session, { user: ["ban"] });
    const target = await findUserToManage(auth, caller, body.userId);
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
