import { adminUpdateUserContract } from "../../../contracts/admin.ts";
import { isDuplicateKeyError } from "../../../db/connect.ts";
import type { UserDoc } from "../../../db/documents.ts";
import { AuthError } from "../../../errors/auth-error.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { findUserByEmail, updateUser } from "../../users/index.ts";
import { settleEmailMove } from "../../verification/index.ts";
import { type AdminUser, toAdminUser } from "../rules.ts";
import { auditSource, recordAuditEvent } from "../service.ts";
import { requireAdminPermission, requireUserToManage } from "./guards.ts";

/**
 * POST /admin/update-user {userId, data}. Strict: a password (set-user-password), a role (set-role)
 * or ban fields (ban-user) are refused with 400, so each guarded field has exactly one path with its
 * own permission and audit event. A new email is normalised and must be free, and needs set-email.
 * Any change to another admin needs manage-admins (requireUserToManage). Recorded in the audit trail.
 */
export const adminUpdateUser = defineEndpoint(adminUpdateUserContract, {
  sensitive: true,
  async handler(ctx): Promise<AdminUser> {
    const { auth, body } = ctx;
    // Moving an address is an account takeover in two steps (then a reset link): its own permission.
    const touchesEmail = body.data.email !== undefined || body.data.emailVerified !== undefined;
    const caller = requireAdminPermission(auth, ctx.session, {
      user: touchesEmail ? ["update", "set-email"] : ["update"],
    });
    const fields = Object.fromEntries(
      Object.entries(body.data).filter(([, value]) => value !== undefined),
    ) as Partial<UserDoc>;
    if (Object.keys(fields).length === 0) throw new AuthError("NO_FIELDS_TO_UPDATE");
    const target = await requireUserToManage(auth, caller, body.userId);
    if (fields.email !== undefined && fields.email !== target.email) {
      if (await findUserByEmail(auth.collections, fields.email)) throw new AuthError("USER_ALREADY_EXISTS");
    }
    const updated = await updateUser(auth, target._id, fields).catch((error: unknown) => {
      // Lost a race for the address: the unique email index decides.
      if (isDuplicateKeyError(error)) throw new AuthError("USER_ALREADY_EXISTS");
      throw error;
    });
    if (!updated) throw new AuthError("FAILED_TO_UPDATE_USER");
    // As for the user's own change: old reset links die, the old address hears of it.
    if (updated.email !== target.email) await settleEmailMove(auth, target, updated.email);
    await recordAuditEvent(auth, {
      action: "user.update",
      actorId: caller.user._id,
      subjectId: target._id,
      details: describeUpdate(target, fields),
      ...auditSource(ctx),
    });
    return toAdminUser(updated, auth.options.admin.defaultRole);
  },
});

/** The audit details: the fields changed, and the address before and after when it moved. */
function describeUpdate(target: UserDoc, fields: Partial<UserDoc>): Record<string, unknown> {
  return {
    fields: Object.keys(fields),
    ...(fields.email !== undefined ? { fromEmail: target.email, toEmail: fields.email } : {}),
    ...(fields.emailVerified !== undefined
      ? { fromEmailVerified: target.emailVerified, toEmailVerified: fields.emailVerified }
      : {}),
  };
}
