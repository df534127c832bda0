import type { AuthContext } from "../../../context.ts";
import { revokeUserSessionContract } from "../../../contracts/admin.ts";
import type { SessionDoc } from "../../../db/documents.ts";
import { parseId } from "../../../db/ids.ts";
import { AuthError } from "../../../errors/auth-error.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import type { SessionWithUser } from "../../session/index.ts";
import { findSessionByToken } from "../../session/index.ts";
import { auditSource, deleteSessionById, findSessionById, recordAuditEvent } from "../service.ts";
import { requireAdminPermission, requireUserToManage } from "./guards.ts";

/**
 * POST /admin/revoke-user-session {sessionToken} or {sessionId} (the `id` list-user-sessions shows,
 * which carries no token, so a listing never leaks one): ends one session; 400 "Session not found"
 * when none. The delete count decides a race of two revocations (one audit event).
 */
export const revokeUserSession = defineEndpoint(revokeUserSessionContract, {
  sensitive: true,
  async handler(ctx): Promise<{ success: true }> {
    const { auth, body } = ctx;
    const caller = requireAdminPermission(auth, ctx.session, { session: ["revoke"] });
    const session = await findNamedSession(auth, body);
    if (!session) throw new AuthError("SESSION_NOT_FOUND");
    await assertMayManageSession(auth, caller, session);
    if (!(await deleteSessionById(auth, session._id))) throw new AuthError("SESSION_NOT_FOUND");
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

/**
 * The may-manage rule for one session: its user, and the admin behind it when it is an
 * impersonation (ending it cuts that admin's work short). A session whose user is gone resolves
 * to nobody already: answered as not found.
 */
async function assertMayManageSession(
  auth: AuthContext,
  caller: SessionWithUser,
  session: SessionDoc,
): Promise<void> {
  const holders = session.impersonatedBy ? [session.userId, session.impersonatedBy] : [session.userId];
  for (const holder of holders) await requireUserToManage(auth, caller, holder, "SESSION_NOT_FOUND");
}

function findNamedSession(
  auth: AuthContext,
  body: { sessionToken?: string | undefined; sessionId?: string | undefined },
): Promise<SessionDoc | null> {
  if (body.sessionToken !== undefined) return findSessionByToken(auth.collections, body.sessionToken);
  const id = parseId(body.sessionId ?? "");
  return id ? findSessionById(auth, id) : Promise.resolve(null);
}
