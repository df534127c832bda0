import { revokeSessionsContract } from "../../../contracts/session.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { clearSessionCookies } from "../service.ts";
import { deleteAllSessionsOfUser } from "../store.ts";

/**
 * Ends every session of the caller, the current one included, and the impersonation sessions they
 * started as an admin (they act with the caller's authority: admin review finding 5); clears the cookies.
 */
export const revokeSessions = defineEndpoint(revokeSessionsContract, {
  sensitive: true,
  async handler(ctx): Promise<{ status: true }> {
    await deleteAllSessionsOfUser(ctx.auth.collections, ctx.session!.user._id);
    clearSessionCookies(ctx.auth, ctx.cookies);
    return { status: true };
  },
});
