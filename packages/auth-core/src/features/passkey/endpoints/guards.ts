import type { AuthContext } from "../../../context.ts";
import { AuthError } from "../../../errors/auth-error.ts";
import { isSessionFresh, type SessionWithUser } from "../../session/index.ts";

/** Registering a passkey adds a way into the account: only a recent sign-in may (as `fresh-session` endpoints). */
export function assertFreshCaller(auth: AuthContext, caller: SessionWithUser): void {
  if (!isSessionFresh(caller.session, auth.now(), auth.options.session.freshAge))
    throw new AuthError("SESSION_NOT_FRESH");
}
