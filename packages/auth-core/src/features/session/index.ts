import type { AnyEndpoint } from "../../http/define-endpoint.ts";
import { getSession } from "./endpoints/get-session.ts";
import { listSessions } from "./endpoints/list-sessions.ts";
import { revokeOtherSessions } from "./endpoints/revoke-other-sessions.ts";
import { revokeSession } from "./endpoints/revoke-session.ts";
import { revokeSessions } from "./endpoints/revoke-sessions.ts";
import { signOut } from "./endpoints/sign-out.ts";

const sessionList = [
  getSession,
  listSessions,
  revokeSession,
  revokeSessions,
  revokeOtherSessions,
  signOut,
] as const;
export const sessionEndpoints: readonly AnyEndpoint[] = sessionList;
/** The endpoints of this feature, with their types (the keys and signatures of `auth.api`). */
export type SessionEndpoint = (typeof sessionList)[number];

// The face other features use: the one way to get a session (every sign-in path, impersonation, the
// password change's re-issue); features/organization writes and clears a session's active
// organization and team.
export {
  type Established,
  type EstablishedSession,
  type EstablishOptions,
  establishSession,
  type SessionRequest,
} from "./establish.ts";
export {
  clearActiveOrganizationOfSessions,
  clearActiveTeamOfSessions,
  setCookieCache,
} from "./service.ts";
export { setSessionActiveOrganization, setSessionActiveOrganizationReturning } from "./store.ts";
export type { SessionWithUser } from "./types.ts";
