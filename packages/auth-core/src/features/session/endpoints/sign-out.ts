import { signOutContract } from "../../../contracts/session.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import {
  clearSessionCookies,
  deleteSessionByToken,
  readSessionToken,
  takeParkedSessionToken,
} from "../service.ts";

/**
 * Always succeeds: signing out without a session (or with a forged cookie) just clears cookies.
 * Everything this browser holds ends: its session, and a session parked behind it — an admin's
 * own, set aside while impersonating — so signing out mid-impersonation leaves no session of the
 * admin's on the machine either (docs/security.md "Impersonation").
 */
export const signOut = defineEndpoint(signOutContract, {
  async handler(ctx): Promise<{ success: true }> {
    const token = readSessionToken(ctx.auth, ctx.cookies);
    const parked = takeParkedSessionToken(ctx.auth, ctx.cookies);
    if (token) await deleteSessionByToken(ctx.auth, token);
    if (parked) await deleteSessionByToken(ctx.auth, parked);
    clearSessionCookies(ctx.auth, ctx.cookies);
    return { success: true };
  },
});
