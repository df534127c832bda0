import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { clearSessionCookies } from "../service.ts";
import { deleteUserSessions } from "../store.ts";

/** Ends every session of the caller, the current one included, and clears the cookies. */
export const revokeSessions = defineEndpoint({
  name: "revokeSessions",
  method: "POST",
  path: "/revoke-sessions",
  auth: "session",
  sensitive: true,
  async handler(ctx): Promise<{ status: true }> {
    await deleteUserSessions(ctx.auth.collections, ctx.session!.user._id);
    clearSessionCookies(ctx.auth, ctx.cookies);
    return { status: true };
  },
});
