import type { AuthContext } from "../../../context.ts";
import type { UserDoc } from "../../../db/documents.ts";
import type { ObjectId } from "../../../db/ids.ts";
import { AuthError } from "../../../errors/auth-error.ts";
import type { ErrorCode } from "../../../errors/catalogue.ts";
import type { SessionWithUser } from "../../session/index.ts";
import type { PermissionRequest } from "../access.ts";
import { operatorOf } from "../operator.ts";
import { findNamedUser, hasAdminPermission, mayGrantRoles, mayManageUser } from "../service.ts";

/**
 * The checks every admin endpoint starts with, and the one place where their "not found" (null
 * from the services) and "not allowed" become catalogue errors. Services below never throw a
 * catalogue error: they answer null, a boolean rule or a refusal value (errors/refusal.ts).
 */

/**
 * The guard of every admin endpoint. The caller was read from the database (the endpoints are
 * `sensitive`), so a demotion or a ban applies to the very next request. An impersonation session
 * can do nothing here (docs/security.md): whoever it impersonates, the admin acts as that user,
 * never with admin rights through them.
 */
export function requireAdminPermission(
  auth: AuthContext,
  caller: SessionWithUser | null,
  request: PermissionRequest,
): SessionWithUser {
  if (!caller) throw new AuthError("UNAUTHORIZED");
  assertNotImpersonating(caller);
  if (operatorOf(caller) !== null) return caller;
  if (!hasAdminPermission(auth, caller.user, request)) throw new AuthError("RESOURCE_ACCESS_NOT_ALLOWED");
  return caller;
}

/**
 * Refuses an impersonation session. The caller must have been read from the database
 * (`sensitive: true`): the cookie cache does not carry `impersonatedBy`.
 */
function assertNotImpersonating(caller: SessionWithUser): void {
  if (caller.session.impersonatedBy) throw new AuthError("NOT_ALLOWED_WHILE_IMPERSONATING");
}

/**
 * The user an admin request acts on — changes, bans, removes, or whose sessions it lists or ends:
 * 404 for an unknown or malformed id (never sent to the database; `notFound` names another answer,
 * as revoke-user-session's "Session not found"), then the may-manage rule (service.ts
 * mayManageUser, 403). The one way admin endpoints that target a user find their target, so none
 * can skip the may-manage rule.
 */
export async function requireUserToManage(
  auth: AuthContext,
  caller: SessionWithUser,
  userId: string | ObjectId,
  notFound: ErrorCode = "USER_NOT_FOUND",
): Promise<UserDoc> {
  const target = await findNamedUser(auth, userId);
  if (!target) throw new AuthError(notFound);
  if (!mayManageUser(auth, caller, target)) throw new AuthError("RESOURCE_ACCESS_NOT_ALLOWED");
  return target;
}

/**
 * The user an admin request only reads — what list-users shows of every user anyway (get-user,
 * has-permission): 404 for an unknown or malformed id, no may-manage rule. Anything that acts on
 * the user, or reads more than list-users shows (their sessions), uses requireUserToManage.
 */
export async function requireUserToRead(auth: AuthContext, userId: string | ObjectId): Promise<UserDoc> {
  const user = await findNamedUser(auth, userId);
  if (!user) throw new AuthError("USER_NOT_FOUND");
  return user;
}

/** service.ts mayGrantRoles: granting a role needs every action it grants (no handing out more). */
export function assertMayGrantRoles(auth: AuthContext, caller: SessionWithUser, stored: string): void {
  if (!mayGrantRoles(auth, caller, stored)) throw new AuthError("RESOURCE_ACCESS_NOT_ALLOWED");
}
