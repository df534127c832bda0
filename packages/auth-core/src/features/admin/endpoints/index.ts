import type { AnyEndpoint } from "../../../http/define-endpoint.ts";
import { banUserEndpoint } from "./ban-user.ts";
import { createUserEndpoint } from "./create-user.ts";
import { getAdminStats } from "./get-stats.ts";
import { getUser } from "./get-user.ts";
import { userHasPermission } from "./has-permission.ts";
import { impersonateUser } from "./impersonate-user.ts";
import { listAuditEvents } from "./list-audit-events.ts";
import { adminListUserAccounts } from "./list-user-accounts.ts";
import { listUserSessions } from "./list-user-sessions.ts";
import { listUsers } from "./list-users.ts";
import { removeUser } from "./remove-user.ts";
import { revokeUserSession } from "./revoke-user-session.ts";
import { revokeUserSessions } from "./revoke-user-sessions.ts";
import { setRole } from "./set-role.ts";
import { setUserPassword } from "./set-user-password.ts";
import { stopImpersonating } from "./stop-impersonating.ts";
import { unbanUserEndpoint } from "./unban-user.ts";
import { adminUpdateUser } from "./update-user.ts";

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
  adminListUserAccounts,
  getAdminStats,
] as const;
export const adminEndpoints: readonly AnyEndpoint[] = adminList;
/** The endpoints of this feature, with their types (the keys and signatures of `auth.api`). */
export type AdminEndpoint = (typeof adminList)[number];
