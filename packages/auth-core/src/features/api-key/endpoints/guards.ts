import type { ObjectId } from "../../../db/ids.ts";
import { parseId } from "../../../db/ids.ts";
import { AuthError } from "../../../errors/auth-error.ts";
import type { EndpointContext } from "../../../http/define-endpoint.ts";
import type { SessionWithUser } from "../../session/index.ts";
import { isSessionFresh } from "../../session/index.ts";
import { findServerOnlyFields } from "../rules.ts";

/**
 * The checks the API-key endpoints start with: whose keys a call acts on, and whether the caller
 * may. They throw the catalogue error; the services below answer null or a refusal value.
 */

/**
 * Whose keys a call acts on. Over HTTP: the signed-in user, and a body naming limits or another
 * user is refused with 403 "Not authorized" — decided by `isServerCall`, never by the absence of a
 * session (CVE-2025-61928/K2). Server code (auth.api) may name any `userId`.
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

/** Whose key create makes, and whether the signed-in session is that owner (see NewKeyOwner). */
export interface NewKeyOwner {
  userId: ObjectId;
  /**
   * True when the owner is the caller's session rather than a user named by server code: the key
   * is marked `createdFromSession`, and the session must be fresh — a stolen session could mint a
   * standing credential, so minting one asks for the same recent sign-in as changing the email
   * (docs/security.md "Account recovery").
   */
  fromSession: boolean;
}

/** resolveKeyOwner for create; throws 403 "Session is not fresh" when the owning session is stale. */
export function resolveNewKeyOwner(
  ctx: Pick<EndpointContext<unknown, unknown>, "isServerCall" | "session" | "auth">,
  body: Record<string, unknown>,
): NewKeyOwner {
  const userId = resolveKeyOwner(ctx, body);
  const fromSession = assertFreshWhenSessionOwned(ctx, body);
  return { userId, fromSession };
}

/**
 * When the caller's session acts as the key's owner (not server code naming a user), that session
 * must be fresh: minting a key, or extending one (a new expiry, re-enabling), turns a session into a
 * standing credential (docs/security.md "Account recovery"). Returns whether the session is the owner.
 */
export function assertFreshWhenSessionOwned(
  ctx: Pick<EndpointContext<unknown, unknown>, "isServerCall" | "session" | "auth">,
  body: Record<string, unknown>,
): boolean {
  const fromSession = !(ctx.isServerCall && body.userId !== undefined);
  if (fromSession) {
    const { session } = ctx.session!;
    if (!isSessionFresh(session, ctx.auth.now(), ctx.auth.options.session.freshAge))
      throw new AuthError("SESSION_NOT_FRESH");
  }
  return fromSession;
}

/**
 * An admin impersonating a user must not mint, change or delete the user's keys — a key
 * would outlive the 1-hour impersonation session and carry no `impersonatedBy` trace.
 */
export function assertNotImpersonating(caller: SessionWithUser | null): void {
  if (caller?.session.impersonatedBy) throw new AuthError("NOT_ALLOWED_WHILE_IMPERSONATING");
}
