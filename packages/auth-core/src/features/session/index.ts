/** The face of session: what other features and create-auth.ts may use (endpoints: endpoints/, registered by features/registry.ts). */

/** The one way to get a session: every sign-in path, impersonation, the password change's re-issue. */
export {
  type BannedFromSession,
  type Established,
  establishSession,
  type SessionRequest,
} from "./establish.ts";
export { isSessionExpired, isSessionFresh } from "./rules.ts";
export {
  clearActiveOrganizationOfSessions,
  clearActiveTeamOfSessions,
  clearSessionCookies,
  parkSession,
  readCachedSession,
  readSession,
  setCookieCache,
  setSessionCookies,
  takeParkedSessionToken,
} from "./service.ts";
/** Storage operations other features run on sessions (sign-out everywhere, admin, organization). */
export {
  clearStaleActiveOrganizations,
  countUnexpiredSessions,
  deleteAllSessionsOfUser,
  deleteExpiredSessions,
  deleteImpersonationSessionsBy,
  deleteSessionById,
  deleteUserSessions,
  findSessionById,
  findSessionByToken,
  listUserSessions,
  sessionEventSource,
  sessionRowsForChecks,
  setSessionActiveOrganization,
  setSessionActiveOrganizationReturning,
} from "./store.ts";
export {
  type DeclaredUserDoc,
  type Session,
  type SessionWithUser,
  toSession,
  toUser,
  type User,
} from "./types.ts";
