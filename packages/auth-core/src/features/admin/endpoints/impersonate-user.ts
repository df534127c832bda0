import { impersonateUserContract } from "../../../contracts/admin.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { type Session, toSession, toUser, type User } from "../../session/index.ts";
import { assertMayImpersonate, startImpersonation } from "../impersonation-service.ts";
import { auditSource, findUserToRead, recordAuditEvent, requireAdminPermission } from "../service.ts";

/**
 * POST /admin/impersonate-user {userId, reason?} → {session, user} of the impersonated user. The
 * audit event is written BEFORE the session exists: an impersonation that cannot be recorded does
 * not happen (accountability over availability).
 */
export const impersonateUser = defineEndpoint(impersonateUserContract, {
  sensitive: true,
  async handler(ctx): Promise<{ session: Session; user: User }> {
    const { auth, body } = ctx;
    const caller = requireAdminPermission(auth, ctx.session, { user: ["impersonate"] });
    // Impersonation has its own form of the may-manage rule (impersonate-admins): assertMayImpersonate.
    const target = await findUserToRead(auth, body.userId);
    assertMayImpersonate(auth, caller, target);
    const source = auditSource(ctx);
    await recordAuditEvent(auth, {
      action: "impersonation.start",
      actorId: caller.user._id,
      subjectId: target._id,
      reason: body.reason ?? null,
      details: { adminSessionId: caller.session._id.toHexString() },
      ...source,
    });
    const session = await startImpersonation(auth, ctx.cookies, caller, target, source);
    return { session: toSession(session), user: toUser(target) };
  },
});
