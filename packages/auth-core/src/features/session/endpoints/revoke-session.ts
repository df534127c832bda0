import { revokeSessionContract } from "../../../contracts/session.ts";
import { AuthError } from "../../../errors/auth-error.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { clearSessionCookies, deleteUserSessionByToken } from "../service.ts";

/**
 * Ends one of the caller's own sessions. The delete is filtered by the caller's user id, so
 * another user's token changes nothing and answers exactly like an unknown one (400 Session not
 * found): the endpoint is no oracle for which tokens exist. Revoking the current session also
 * clears its cookies. Sensitive: the caller is read from the database, never the cookie cache
 * (docs/decisions/0009-sessions-and-cookies.md "Cookie cache"), so a revoked session cannot revoke others from a stale cache.
 */
export const revokeSession = defineEndpoint(revokeSessionContract, {
  sensitive: true,
  async handler(ctx): Promise<{ status: true }> {
    const { auth } = ctx;
    const caller = ctx.session!;
    const deleted = await deleteUserSessionByToken(auth, caller.user._id, ctx.body.token);
    if (!deleted) throw new AuthError("SESSION_NOT_FOUND");
    if (ctx.body.token === caller.session.token) clearSessionCookies(auth, ctx.cookies);
    return { status: true };
  },
});
