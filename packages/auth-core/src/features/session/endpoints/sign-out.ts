import { signOutContract } from "../../../contracts/session.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { clearSessionCookies, readSessionToken } from "../service.ts";
import { deleteSessionByToken } from "../store.ts";

/** Always succeeds: signing out without a session (or with a forged cookie) just clears cookies. */
export const signOut = defineEndpoint(signOutContract, {
  async handler(ctx): Promise<{ success: true }> {
    const token = readSessionToken(ctx.auth, ctx.cookies);
    if (token) await deleteSessionByToken(ctx.auth.collections, token);
    clearSessionCookies(ctx.auth, ctx.cookies);
    return { success: true };
  },
});
