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
