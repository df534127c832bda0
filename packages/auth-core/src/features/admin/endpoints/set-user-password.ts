import { z } from "zod";
import { hashPassword } from "../../../crypto/index.ts";
import { AuthError } from "../../../errors/auth-error.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { passwordField } from "../../schemas.ts";
import {
  assertPasswordLength,
  createCredentialAccount,
  updateCredentialPassword,
} from "../../users/service.ts";
import { findCredentialAccount } from "../../users/store.ts";
import { userIdField } from "../schemas.ts";
import {
  assertMayManageUser,
  auditSource,
  findTargetUser,
  recordAuditEvent,
  requireAdminPermission,
} from "../service.ts";

/**
 * POST /admin/set-user-password {userId, newPassword}: the length rules of SPEC §5; a user without a
 * credential account gets one. The user's sessions are left alone (Better Auth's behaviour); the
 * audit trail records who set it.
 */
export const setUserPassword = defineEndpoint({
  name: "setUserPassword",
  method: "POST",
  path: "/admin/set-user-password",
  auth: "session",
  sensitive: true,
  body: z.strictObject({ userId: userIdField, newPassword: passwordField }),
  async handler(ctx): Promise<{ status: true }> {
    const { auth, body } = ctx;
    const caller = requireAdminPermission(auth, ctx.session, { user: ["set-password"] });
    assertPasswordLength(auth, body.newPassword);
    const target = await findTargetUser(auth, body.userId);
    assertMayManageUser(auth, caller, target);
    const hash = await hashPassword(body.newPassword);
    const account = await findCredentialAccount(auth.collections, target._id);
    if (account) {
      if (!(await updateCredentialPassword(auth, account._id, hash)))
        throw new AuthError("FAILED_TO_UPDATE_USER");
    } else {
      await createCredentialAccount(auth, target._id, hash);
    }
    await recordAuditEvent(auth, {
      action: "user.set-password",
      actorId: caller.user._id,
      subjectId: target._id,
      ...auditSource(ctx),
    });
    return { status: true };
  },
});
