import { stopImpersonatingContract } from "../../../contracts/admin.ts";
import { AuthError } from "../../../errors/auth-error.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { type Session, toSession, toUser, type User } from "../../session/index.ts";
import { stopImpersonation } from "../impersonation-service.ts";
import { auditSource, recordAuditEvent } from "../service.ts";

/**
 * POST /admin/stop-impersonating → {session, user} of the admin, whose session is restored.
 * The impersonation session is deleted in every case; when the admin's session cannot be restored
 * (revoked, expired, admin demoted or banned) the answer is 401 with every session cookie cleared.
 */
export const stopImpersonating = defineEndpoint(stopImpersonatingContract, {
  sensitive: true,
  async handler(ctx): Promise<{ session: Session; user: User }> {
    const { auth } = ctx;
    const current = ctx.session!;
    const adminId = current.session.impersonatedBy;
    if (!adminId) throw new AuthError("NOT_IMPERSONATING");
    const outcome = await stopImpersonation(auth, ctx.cookies, {
      ...current.session,
      impersonatedBy: adminId,
    });
    if (!outcome.restored && outcome.reason === "already-stopped") throw new AuthError("UNAUTHORIZED");
    await recordAuditEvent(auth, {
      action: "impersonation.stop",
      actorId: adminId,
      subjectId: current.user._id,
      details: { restored: outcome.restored },
      ...auditSource(ctx),
    });
    if (!outcome.restored) throw new AuthError("UNAUTHORIZED");
    return { session: toSession(outcome.session), user: toUser(outcome.user) };
  },
});
