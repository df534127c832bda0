import type { AuthContext } from "../../context.ts";
import type { UserDoc } from "../../db/documents.ts";
import { granted, type Outcome, refused } from "../../errors/refusal.ts";
import { updateUser } from "../users/index.ts";
import { parseRoleList } from "./access.ts";
import { areKnownRoles, normaliseRoleInput } from "./rules.ts";
import { adminRoles, hasAdminPermission } from "./service.ts";
import { deleteImpersonationSessionsBy } from "./store.ts";

/** The stored form of a role input (comma separated); INVALID_ROLE unless every name is configured. */
export function resolveRoleInput(
  auth: AuthContext,
  role: string | readonly string[],
): Outcome<string, "INVALID_ROLE"> {
  const names = normaliseRoleInput(role);
  if (!areKnownRoles(names, adminRoles(auth))) return refused("INVALID_ROLE");
  return granted(names.join(","));
}

/**
 * Sets a user's role. When the user can no longer impersonate, the impersonation sessions they
 * started end at once (docs/security.md): a demoted admin keeps no borrowed identity.
 * Null when the user is gone or a hook refused.
 */
export async function setUserRole(auth: AuthContext, user: UserDoc, role: string): Promise<UserDoc | null> {
  const updated = await updateUser(auth, user._id, { role });
  if (!updated) return null;
  if (!hasAdminPermission(auth, updated, { user: ["impersonate"] })) {
    await deleteImpersonationSessionsBy(auth.collections, user._id);
  }
  return updated;
}

/** The roles as the audit trail records them. */
export function describeRoles(auth: AuthContext, user: UserDoc): string {
  return parseRoleList(user.role, auth.options.admin.defaultRole).join(",");
}
