import { impersonateUserContract } from "../../../contracts/admin.ts";
import { answerRefusal } from "../../../errors/refusal.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { type Session, toSession, toUser, type User } from "../../session/index.ts";
import { checkImpersonationTarget, startImpersonation } from "../impersonation-service.ts";
import { auditSource, recordAuditEvent } from "../service.ts";
import { requireAdminPermission, requireUserToRead } from "./guards.ts";

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
    // Impersonation has its own form of the may-manage rule (impersonate-admins): checkImpersonationTarget.
    const named = await requireUserToRead(auth, body.userId);
    const target = answerRefusal(checkImpersonationTarget(auth, caller, named));
    const source = auditSource(ctx);
    await recordAuditEvent(auth, {
      action: "impersonation.start",
      actorId: caller.user._id,
      subjectId: target._id,
      reason: body.reason ?? null,
      details: { adminSessionId: caller.session._id.toHexString() },
      ...source,
    });
    const session = answerRefusal(await startImpersonation(auth, ctx.cookies, caller, target, source));
    return { session: toSession(session), user: toUser(target) };
  },
});
