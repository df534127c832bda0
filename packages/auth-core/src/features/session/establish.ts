import type { AuthContext } from "../../context.ts";
import type { TwoFactorRedirect } from "../../contracts/two-factor.ts";
import type { SessionDoc, UserDoc } from "../../db/documents.ts";
import type { ObjectId } from "../../db/ids.ts";
import type { CookieJar } from "../../http/cookie-jar.ts";
import { checkUserNotBanned } from "../users/index.ts";
import { createSession, setSessionCookies } from "./service.ts";

/** What a request gives the session it gets: where the cookies go, and what the session records. */
export interface SessionRequest {
  cookies: CookieJar;
  ip: string | null;
  userAgent: string | null;
}

export interface EstablishOptions {
  /** False: the session ends with the browser session (docs/decisions/ `rememberMe`). */
  rememberMe: boolean;
  /**
   * "check": a banned user gets no session but the answer "banned" (an expired ban lifts itself,
   * and the lifted copy is what the session and its cookie cache carry). "not-applicable": nothing to refuse here —
   * a user this very request created, a caller whose live session was just read from the database
   * (readSession refuses a banned user's), or a target the caller already refused with its own answer.
   */
  ban: "check" | "not-applicable";
  /**
   * "gate": a two-factor user gets a challenge instead of a session (docs/decisions/0014-two-factor.md "Two-factor":
   * every way of signing in that mints a session is gated). "passed": the second factor was proven on this request or
   * on the caller's session. "not-applicable": no second factor can stand in the way (a new user, an
   * administrator's impersonation).
   */
  secondFactor: "gate" | "passed" | "not-applicable";
  /** An administrator's impersonation session: who started it, and its own fixed expiry. */
  impersonation?: { impersonatedBy: ObjectId; expiresAt: Date };
  /**
   * The path's own refusals, run once the ban check passed and before the gate: sign-in/email
   * refuses an unverified address here, so a ban is answered first and before any mail is sent.
   */
  beforeGate?: (user: UserDoc) => Promise<void>;
  /**
   * What must succeed before the browser gets the session, which exists by then: the impersonation's
   * re-check of the administrator, the password change's sign-out everywhere else. A throw leaves
   * the cookies unset.
   */
  beforeCookies?: (session: SessionDoc) => Promise<void>;
}

export interface EstablishedSession {
  kind: "session";
  session: SessionDoc;
  /** The user as the session carries it (after the ban check: an expired ban lifted). */
  user: UserDoc;
}

export type Established = EstablishedSession | { kind: "challenge"; answer: TwoFactorRedirect };

/**
 * Ban "check" refused the user (features/users/ban.ts checkUserNotBanned): nothing was created and no cookie set;
 * the endpoint answers BANNED_USER (the users face's bannedUserError) or its own way (a redirect).
 */
export interface BannedFromSession {
  kind: "banned";
}

/**
 * THE way to get a session (docs/architecture.md "Getting a session"): ban check → second-factor
 * gate → create → cookies, each path stating which steps apply. The ban check is the user's
 * (features/users/ban.ts, imported from the users face). The gate belongs to features/two-factor,
 * which gets sessions through this pipeline: createAuth hands it over in `auth.sessionSteps`, so
 * session does not import two-factor and dependencies stay one-way.
 * Answers "banned" (ban "check" only); throws FAILED_TO_CREATE_SESSION (a session create hook
 * refused, or the challenge could not be stored), and whatever `beforeGate` / `beforeCookies` throw.
 */
export async function establishSession(
  auth: AuthContext,
  request: SessionRequest,
  user: UserDoc,
  options: EstablishOptions & { ban: "check"; secondFactor: "gate" },
): Promise<Established | BannedFromSession>;
export async function establishSession(
  auth: AuthContext,
  request: SessionRequest,
  user: UserDoc,
  options: EstablishOptions & { ban: "check"; secondFactor: "passed" | "not-applicable" },
): Promise<EstablishedSession | BannedFromSession>;
export async function establishSession(
  auth: AuthContext,
  request: SessionRequest,
  user: UserDoc,
  options: EstablishOptions & { ban: "not-applicable"; secondFactor: "gate" },
): Promise<Established>;
export async function establishSession(
  auth: AuthContext,
  request: SessionRequest,
  user: UserDoc,
  options: EstablishOptions & { ban: "not-applicable"; secondFactor: "passed" | "not-applicable" },
): Promise<EstablishedSession>;
export async function establishSession(
  auth: AuthContext,
  request: SessionRequest,
  found: UserDoc,
  options: EstablishOptions,
): Promise<Established | BannedFromSession> {
  let user = found;
  if (options.ban === "check") {
    const checked = checkUserNotBanned(auth, found);
    if (!checked.ok) return { kind: "banned" };
    user = checked.value;
  }
  await options.beforeGate?.(user);
  if (options.secondFactor === "gate") {
    const { cookies } = request;
    const answer = await auth.sessionSteps.gateSessionMint({ auth, cookies }, user, {
      rememberMe: options.rememberMe,
    });
    if (answer) return { kind: "challenge", answer };
  }
  const session = await createSession(auth, {
    userId: user._id,
    dontRemember: !options.rememberMe,
    ipAddress: request.ip,
    userAgent: request.userAgent,
    ...(options.impersonation ? { impersonation: options.impersonation } : {}),
  });
  await options.beforeCookies?.(session);
  setSessionCookies(auth, request.cookies, session, user);
  return { kind: "session", session, user };
}
