import { revokeUserSessionsContract } from "../../../contracts/admin.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { deleteUserSessions } from "../../session/index.ts";
import { revokeKeysMintedBySessions } from "../../sign-out-everywhere.ts";
import { auditSource, deleteImpersonationSessionsBy, recordAuditEvent } from "../service.ts";
import { requireAdminPermission, requireUserToManage } from "./guards.ts";

/**
 * POST /admin/revoke-user-sessions {userId}: ends every session of the user (the caller's own too,
 * if it is theirs), the impersonations they started and the API keys their sessions minted (an
 * administrator ends a compromised account's sessions: docs/security.md "Account recovery ends every
 * credential an attacker could have minted"); recorded with the counts.
 */
export const revokeUserSessions = defineEndpoint(revokeUserSessionsContract, {
  sensitive: true,
  async handler(ctx): Promise<{ success: true }> {
    const { auth } = ctx;
    const caller = requireAdminPermission(auth, ctx.session, { session: ["revoke"] });
    const target = await requireUserToManage(auth, caller, ctx.body.userId);
    const sessions = await deleteUserSessions(auth.collections, target._id);
    // An admin's impersonations carry their authority: they end with the admin's sessions.
    const impersonations = await deleteImpersonationSessionsBy(auth, target._id);
    const apiKeys = await revokeKeysMintedBySessions(auth, target._id);
    await recordAuditEvent(auth, {
      action: "session.revoke-all",
      actorId: caller.user._id,
      subjectId: target._id,
      details: { sessions, impersonations, apiKeys },
      ...auditSource(ctx),
    });
    return { success: true };
  },
});
