import { revokeSessionsContract } from "../../../contracts/session.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { signOutEverywhere } from "../../sign-out-everywhere.ts";
import { clearSessionCookies } from "../service.ts";

/**
 * Ends every session of the caller, the current one included, and the impersonation sessions they
 * started as an admin (they act with the caller's authority), and the API keys
 * their sessions minted (features/sign-out-everywhere.ts); clears the cookies.
 */
export const revokeSessions = defineEndpoint(revokeSessionsContract, {
  sensitive: true,
  async handler(ctx): Promise<{ status: true }> {
    await signOutEverywhere(ctx.auth, ctx.session!.user._id);
    clearSessionCookies(ctx.auth, ctx.cookies);
    return { status: true };
  },
});
