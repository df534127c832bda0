import { removeUserContract } from "../../../contracts/admin.ts";
import { AuthError } from "../../../errors/auth-error.ts";
import { answerRefusal } from "../../../errors/refusal.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { deleteUserAndData } from "../../deletion/index.ts";
import { auditSource, claimUserRemoval, recordAuditEvent } from "../service.ts";
import { requireAdminPermission, requireUserToManage } from "./guards.ts";

/**
 * POST /admin/remove-user {userId}: the same cascade as a user deleting their own account
 * (sessions, user, accounts, pending tokens — features/deletion, with its hooks), plus the
 * impersonation sessions the removed user started. The audit event is kept.
 */
export const removeUser = defineEndpoint(removeUserContract, {
  sensitive: true,
  async handler(ctx): Promise<{ success: true }> {
    const { auth, body } = ctx;
    const caller = requireAdminPermission(auth, ctx.session, { user: ["delete"] });
    const target = await requireUserToManage(auth, caller, body.userId);
    if (target._id.equals(caller.user._id)) throw new AuthError("CANNOT_REMOVE_YOURSELF");
    answerRefusal(await deleteUserAndData(auth, target));
    // Lost a race with another removal of the same user: it is gone, and the winner records it.
    if (!(await claimUserRemoval(auth, target._id))) throw new AuthError("USER_NOT_FOUND");
    await recordAuditEvent(auth, {
      action: "user.remove",
      actorId: caller.user._id,
      subjectId: target._id,
      details: { email: target.email },
      ...auditSource(ctx),
    });
    return { success: true };
  },
});
