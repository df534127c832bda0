import type { AnyEndpoint } from "../../http/define-endpoint.ts";
import { banUserEndpoint } from "./endpoints/ban-user.ts";
import { createUserEndpoint } from "./endpoints/create-user.ts";
import { getUser } from "./endpoints/get-user.ts";
import { userHasPermission } from "./endpoints/has-permission.ts";
import { impersonateUser } from "./endpoints/impersonate-user.ts";
import { listAuditEvents } from "./endpoints/list-audit-events.ts";
import { listUserSessions } from "./endpoints/list-user-sessions.ts";
import { listUsers } from "./endpoints/list-users.ts";
import { removeUser } from "./endpoints/remove-user.ts";
import { revokeUserSession } from "./endpoints/revoke-user-session.ts";
import { revokeUserSessions } from "./endpoints/revoke-user-sessions.ts";
import { setRole } from "./endpoints/set-role.ts";
import { setUserPassword } from "./endpoints/set-user-password.ts";
import { stopImpersonating } from "./endpoints/stop-impersonating.ts";
import { unbanUserEndpoint } from "./endpoints/unban-user.ts";
import { adminUpdateUser } from "./endpoints/update-user.ts";

/** the endpoint reference (README) "Admin" and issue 5: every endpoint under /admin/. */
const adminList = [
  listUsers,
  getUser,
  createUserEndpoint,
  adminUpdateUser,
  setRole,
  banUserEndpoint,
  unbanUserEndpoint,
  impersonateUser,
  stopImpersonating,
  listUserSessions,
  revokeUserSession,
  revokeUserSessions,
  removeUser,
  setUserPassword,
  userHasPermission,
  listAuditEvents,
] as const;
export const adminEndpoints: readonly AnyEndpoint[] = adminList;
/** The endpoints of this feature, with their types (the keys and signatures of `auth.api`). */
export type AdminEndpoint = (typeof adminList)[number];

export { assertUserNotBanned } from "./ban-service.ts";
export { assertNotImpersonating } from "./service.ts";
