import type { AuthContext } from "../../../context.ts";
import { revokeUserSessionContract } from "../../../contracts/admin.ts";
import type { SessionDoc } from "../../../db/documents.ts";
import { parseId } from "../../../db/ids.ts";
import { AuthError } from "../../../errors/auth-error.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { findSessionByToken } from "../../session/store.ts";
import { auditSource, recordAuditEvent, requireAdminPermission } from "../service.ts";
import { deleteSessionById, findSessionById } from "../store.ts";

/**
 * POST /admin/revoke-user-session {sessionToken} or {sessionId} (the `id` list-user-sessions shows,
 * which no longer carries tokens: review finding 10): ends one session; 400 "Session not found"
 * when none. The delete count decides a race of two revocations (one audit event).
 */
export const revokeUserSession = defineEndpoint(revokeUserSessionContract, {
  sensitive: true,
  async handler(ctx): Promise<{ success: true }> {
    const { auth, body } = ctx;
    const caller = requireAdminPermission(auth, ctx.session, { session: ["revoke"] });
    const session = await findNamedSession(auth, body);
    if (!session || !(await deleteSessionById(auth.collections, session._id))) {
      throw new AuthError("SESSION_NOT_FOUND");
    }
    await recordAuditEvent(auth, {
      action: "session.revoke",
      actorId: caller.user._id,
      subjectId: session.userId,
      details: { sessionId: session._id.toHexString(), impersonatedBy: session.impersonatedBy ?? null },
      ...auditSource(ctx),
    });
    return { success: true };
  },
});

function findNamedSession(
  auth: AuthContext,
  body: { sessionToken?: string | undefined; sessionId?: string | undefined },
): Promise<SessionDoc | null> {
  if (body.sessionToken !== undefined) return findSessionByToken(auth.collections, body.sessionToken);
  const id = parseId(body.sessionId ?? "");
  return id ? findSessionById(auth.collections, id) : Promise.resolve(null);
}
