import type { ObjectId } from "mongodb";
import { parseId } from "../../db/ids.ts";
import { AuthError } from "../../errors/auth-error.ts";
import type { EndpointContext } from "../../http/define-endpoint.ts";
import type { SessionWithUser } from "../session/types.ts";
import { findServerOnlyFields } from "./rules.ts";

/**
 * Whose keys a call acts on. Over HTTP: the signed-in user, and a body naming limits or another
 * user is refused with 403 "Not authorized" — decided by `isServerCall`, never by the absence of a
 * session (CVE-2025-61928, matrix K1/K2). Server code (auth.api) may name any `userId`.
 */
export function resolveKeyOwner(
  ctx: Pick<EndpointContext<unknown, unknown>, "isServerCall" | "session">,
  body: Record<string, unknown>,
): ObjectId {
  assertNotImpersonating(ctx.session);
  if (!ctx.isServerCall) {
    if (!ctx.session) throw new AuthError("UNAUTHORIZED");
    if (findServerOnlyFields(body).length > 0) throw new AuthError("NOT_AUTHORIZED");
    return ctx.session.user._id;
  }
  if (body.userId !== undefined) {
    const userId = parseId(body.userId);
    if (!userId) throw new AuthError("USER_NOT_FOUND");
    return userId;
  }
  if (!ctx.session) throw new AuthError("USER_ID_OR_SESSION_REQUIRED");
  return ctx.session.user._id;
}

/**
 * Matrix J5: an admin impersonating a user must not mint, change or delete the user's keys — a key
 * would outlive the 1-hour impersonation session and carry no `impersonatedBy` trace.
 */
export function assertNotImpersonating(caller: SessionWithUser | null): void {
  if (caller?.session.impersonatedBy) throw new AuthError("NOT_ALLOWED_WHILE_IMPERSONATING");
}
