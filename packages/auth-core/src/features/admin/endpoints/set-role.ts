import { setRoleContract } from "../../../contracts/admin.ts";
import { AuthError } from "../../../errors/auth-error.ts";
import { answerRefusal } from "../../../errors/refusal.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { describeRoles, resolveRoleInput, setUserRole } from "../role-service.ts";
import { type AdminUser, toAdminUser } from "../rules.ts";
import { auditSource, recordAuditEvent } from "../service.ts";
import { assertMayGrantRoles, requireAdminPermission, requireUserToManage } from "./guards.ts";

/** POST /admin/set-role {userId, role}: role is one configured role or a list of them. */
export const setRole = defineEndpoint(setRoleContract, {
  sensitive: true,
  async handler(ctx): Promise<{ user: AdminUser }> {
    const { auth, body } = ctx;
    const caller = requireAdminPermission(auth, ctx.session, { user: ["set-role"] });
    const role = answerRefusal(resolveRoleInput(auth, body.role));
    assertMayGrantRoles(auth, caller, role);
    const target = await requireUserToManage(auth, caller, body.userId);
    const updated = await setUserRole(auth, target, role);
    if (!updated) throw new AuthError("FAILED_TO_UPDATE_USER");
    await recordAuditEvent(auth, {
      action: "user.set-role",
      actorId: caller.user._id,
      subjectId: target._id,
      details: { from: describeRoles(auth, target), to: describeRoles(auth, updated) },
      ...auditSource(ctx),
    });
    return { user: toAdminUser(updated, auth.options.admin.defaultRole) };
  },
});
