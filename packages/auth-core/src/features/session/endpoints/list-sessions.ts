import { listSessionsContract } from "../../../contracts/session.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { listUserSessions } from "../service.ts";
import { type Session, toSession } from "../types.ts";

/**
 * The caller's unexpired sessions, newest first (at most 100). Tokens are included: the endpoint reference (docs/reference.md)'s
 * revoke-session takes `{token}`, so the list is how a user names the session to end. A raw token
 * is not a credential on its own (the cookie carries it HMAC-signed, and no endpoint accepts it
 * unsigned), but it can revoke — hence `fresh-session`, as Better Auth does (docs/decisions/
 * "Fresh-session actions"), and a database read rather than the cookie cache.
 */
export const listSessions = defineEndpoint(listSessionsContract, {
  sensitive: true,
  async handler(ctx): Promise<Session[]> {
    const { auth } = ctx;
    const caller = ctx.session!;
    const sessions = await listUserSessions(auth, caller.user._id, auth.now());
    // An admin's impersonation session is not the user's to see or end (features/admin).
    return sessions.filter((session) => !session.impersonatedBy).map(toSession);
  },
});
