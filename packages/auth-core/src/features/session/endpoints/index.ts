import type { AnyEndpoint } from "../../../http/define-endpoint.ts";
import { getSession } from "./get-session.ts";
import { listSessions } from "./list-sessions.ts";
import { revokeOtherSessions } from "./revoke-other-sessions.ts";
import { revokeSession } from "./revoke-session.ts";
import { revokeSessions } from "./revoke-sessions.ts";
import { signOut } from "./sign-out.ts";

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
