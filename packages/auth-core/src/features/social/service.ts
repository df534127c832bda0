import type { AuthContext } from "../../context.ts";
import { generateRandomString } from "../../crypto/index.ts";
import type { AccountDoc, SessionDoc, UserDoc } from "../../db/documents.ts";
import type { ObjectId } from "../../db/ids.ts";
import type { CookieJar } from "../../http/cookie-jar.ts";
import { applyAfterHook, applyBeforeHook } from "../hooks.ts";
import { createSession, setSessionCookies } from "../session/index.ts";
import { gateSessionMint, type TwoFactorRedirect } from "../two-factor/index.ts";
import { assertUserNotBanned, updateAccountFieldsReturning } from "../users/index.ts";
import { providerRedirectURI } from "./provider-access.ts";
import type { OAuthProvider } from "./providers/types.ts";
import { STATE_LENGTH } from "./rules.ts";
import { createOAuthState, generateCodeVerifier, type OAuthStateData } from "./state.ts";
import { type AccountTokenFields, updateAccountTokens } from "./store.ts";

/** What a request gives the session it mints (the parts of EndpointContext needed). */
export interface SessionRequest {
  cookies: CookieJar;
  ip: string | null;
  headers: Headers;
}

export type SocialMint =
  | { kind: "session"; session: SessionDoc; user: UserDoc }
  | { kind: "two-factor"; answer: TwoFactorRedirect };

/**
 * The ONE place social sign-in mints a session — the OAuth callback and id-token sign-in both come
 * here, so the gates of session-minting paths apply once, in the same order as sign-in/email:
 * the ban (throws BANNED_USER; an expired ban lifts itself), then the second factor (DECISIONS.md
 * "Every session-minting sign-in path … is gated"): a two-factor user gets a challenge cookie and
 * no session. Throws FAILED_TO_CREATE_SESSION when a hook refuses the session.
 */
export async function mintSocialSession(
  auth: AuthContext,
  request: SessionRequest,
  found: UserDoc,
): Promise<SocialMint> {
  const user = await assertUserNotBanned(auth, found);
  const challenged = await gateSessionMint({ auth, cookies: request.cookies }, user, { rememberMe: true });
  if (challenged) return { kind: "two-factor", answer: challenged };
  const session = await createSession(auth, {
    userId: user._id,
    dontRemember: false,
    ipAddress: request.ip,
    userAgent: request.headers.get("user-agent"),
  });
  setSessionCookies(auth, request.cookies, session, user);
  return { kind: "session", session, user };
}

export interface FlowStart {
  callbackURL: string | undefined;
  errorCallbackURL: string | undefined;
  newUserCallbackURL: string | undefined;
  scopes: string[] | undefined;
  loginHint: string | undefined;
  requestSignUp: boolean | undefined;
  link: OAuthStateData["link"];
}

/**
 * Starts an authorization-code flow (SPEC §7 /sign-in/social and /link-social): a fresh state and
 * PKCE verifier (S256, DECISIONS.md lengths) stored as the one-time state record, the browser bound
 * by cookie, and the provider's authorization URL. The redirect URI is fixed server-side (matrix H6).
 */
export async function startAuthorizationFlow(
  auth: AuthContext,
  jar: CookieJar,
  provider: OAuthProvider,
  input: FlowStart,
): Promise<string> {
  const codeVerifier = generateCodeVerifier();
  const nonce = generateRandomString(STATE_LENGTH);
  const state = await createOAuthState(auth, jar, {
    providerId: provider.id,
    codeVerifier,
    nonce,
    callbackURL: input.callbackURL ?? null,
    errorURL: input.errorCallbackURL ?? null,
    newUserURL: input.newUserCallbackURL ?? null,
    requestSignUp: input.requestSignUp === true,
    link: input.link,
  });
  const url = provider.createAuthorizationURL({
    state,
    codeVerifier,
    redirectURI: providerRedirectURI(auth, provider.id),
    scopes: input.scopes ?? [],
    nonce,
    ...(input.loginHint === undefined ? {} : { loginHint: input.loginHint }),
  });
  return url.toString();
}

/**
 * Writes fresh (encrypted) provider tokens on an account through the account update hooks, like
 * every other account write (features/users/service.ts). Returns what was written; null when a
 * hook refused or the account is gone — the caller keeps using the tokens it has.
 */
export async function saveAccountTokens(
  auth: AuthContext,
  accountId: ObjectId,
  fields: AccountTokenFields,
): Promise<AccountTokenFields | null> {
  const hooks = auth.options.hooks?.account?.update;
  const change = await applyBeforeHook<Partial<AccountDoc>>(hooks, fields);
  if (!change) return null;
  const written = { ...fields, ...pickTokenFields(change) };
  if (!hooks?.after)
    return (await updateAccountTokens(auth.collections, accountId, written)) ? written : null;
  // The after hook sees the stored account (config/hooks.ts), returned by the write itself.
  const stored = await updateAccountFieldsReturning(auth.collections, accountId, written);
  if (!stored) return null;
  await applyAfterHook(hooks, stored);
  return written;
}

/** Only token fields may come back from a hook: it cannot move an account to another user. */
function pickTokenFields(change: Partial<AccountDoc>): Partial<AccountTokenFields> {
  const {
    accessToken,
    refreshToken,
    idToken,
    accessTokenExpiresAt,
    refreshTokenExpiresAt,
    scope,
    updatedAt,
  } = change;
  const picked = {
    accessToken,
    refreshToken,
    idToken,
    accessTokenExpiresAt,
    refreshTokenExpiresAt,
    scope,
    updatedAt,
  };
  return Object.fromEntries(Object.entries(picked).filter(([, value]) => value !== undefined));
}
