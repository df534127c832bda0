import { setUserPasswordContract } from "../../../contracts/admin.ts";
import { hashPassword } from "../../../crypto/index.ts";
import { AuthError } from "../../../errors/auth-error.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { revokeSessionMintedKeys } from "../../api-key/index.ts";
import { revokeResetLinks } from "../../password/index.ts";
import { deleteUserSessions } from "../../session/index.ts";
import { forgetSecondFactorSessions } from "../../two-factor/index.ts";
import {
  assertPasswordAllowed,
  createCredentialAccount,
  findCredentialAccount,
  updateCredentialPassword,
} from "../../users/index.ts";
import { auditSource, deleteImpersonationSessionsBy, recordAuditEvent } from "../service.ts";
import { requireAdminPermission, requireUserToManage } from "./guards.ts";

/**
 * POST /admin/set-user-password {userId, newPassword}: the length rules of docs/decisions/; a user without a
 * credential account gets one. The password set for someone else must be reset before it signs them
 * in (`admin.setUserPasswordRequiresReset`): the admin never knows a password that works.
 * Every session of the user ends (docs/security.md — unlike Better Auth, which
 * leaves them: whoever held the old password or a stolen session is out), and so do the
 * impersonations they started, the API keys their sessions minted, pending two-factor challenges and
 * trusted devices; an admin setting their own keeps the current session. The audit trail records
 * who set it and how many sessions and keys ended.
 */
export const setUserPassword = defineEndpoint(setUserPasswordContract, {
  sensitive: true,
  async handler(ctx): Promise<{ status: true }> {
    const { auth, body } = ctx;
    const caller = requireAdminPermission(auth, ctx.session, { user: ["set-password"] });
    const target = await requireUserToManage(auth, caller, body.userId);
    await assertPasswordAllowed(auth, body.newPassword, target);
    const hash = await hashPassword(body.newPassword);
    const self = target._id.equals(caller.user._id);
    const resetRequired = auth.options.admin.setUserPasswordRequiresReset && !self;
    const account = await findCredentialAccount(auth.collections, target._id);
    if (account) {
      if (!(await updateCredentialPassword(auth, account, hash, undefined, resetRequired)))
        throw new AuthError("FAILED_TO_UPDATE_USER");
    } else {
      await createCredentialAccount(auth, target._id, hash, resetRequired);
    }
    const keep = self ? caller.session.token : undefined;
    const sessionsRevoked = await deleteUserSessions(auth.collections, target._id, keep);
    const impersonationsRevoked = await deleteImpersonationSessionsBy(auth, target._id);
    // Keys a stolen session minted end with the sessions, as on a reset (docs/security.md "Account recovery").
    const apiKeysRevoked = await revokeSessionMintedKeys(auth, target._id);
    // A sign-in half done with the old password (waiting at the second factor) or a trusted device
    // must not outlive it either, as after a reset or change (features/password).
    await forgetSecondFactorSessions(auth, target._id);
    await revokeResetLinks(auth, target._id);
    await recordAuditEvent(auth, {
      action: "user.set-password",
      actorId: caller.user._id,
      subjectId: target._id,
      details: { sessionsRevoked, impersonationsRevoked, apiKeysRevoked },
      ...auditSource(ctx),
    });
    return { status: true };
  },
});
