import type { AuthContext } from "../../context.ts";
import { generateRandomString } from "../../crypto/index.ts";
import type { AfterCollections } from "../../db/collections.ts";
import type { AccountDoc, UserDoc } from "../../db/documents.ts";
import type { ObjectId } from "../../db/ids.ts";
import type { CookieJar } from "../../http/cookie-jar.ts";
import { applyAfterHook, applyBeforeHook } from "../hooks.ts";
import { type BannedFromSession, type Established, establishSession } from "../session/index.ts";
import { assertSignInWithoutSso } from "../sso-domains/index.ts";
import { updateAccountFieldsReturning } from "../users/index.ts";
import { providerRedirectURI } from "./provider-access.ts";
import type { OAuthProvider } from "./providers/types.ts";
import { STATE_LENGTH } from "./rules.ts";
import { createOAuthState, generateCodeVerifier, type OAuthStateData } from "./state.ts";
import * as stored from "./store.ts";
import { type AccountTokenFields, updateAccountTokens } from "./store.ts";

/** What a social sign-in request gives the session it gets (the parts of EndpointContext needed). */
export interface SocialRequest {
  cookies: CookieJar;
  ip: string | null;
  headers: Headers;
}

/**
 * Social sign-in's session — the OAuth callback and id-token sign-in both come here — through the
 * session pipeline (features/session establishSession) with the steps of every sign-in: the ban
 * (answered "banned"; an expired ban lifts itself), then the second-factor gate (a two-factor user gets a
 * challenge cookie and no session). Provider sign-ins are remembered. A verified domain requiring
 * SSO refuses other providers (features/sso-domains: SSO_REQUIRED): a new user's address was
 * checked before it was written (socialSignUpGuard), a returning user's is checked here.
 */
export function signInSocialUser(
  auth: AuthContext,
  request: SocialRequest,
  outcome: { user: UserDoc; isNewUser: boolean },
): Promise<Established | BannedFromSession> {
  const { cookies, ip } = request;
  const userAgent = request.headers.get("user-agent");
  return establishSession(auth, { cookies, ip, userAgent }, outcome.user, {
    rememberMe: true,
    ban: "check",
    secondFactor: "gate",
    ...(outcome.isNewUser
      ? {}
      : {
          beforeGate: async (checked: UserDoc) => {
            await assertSignInWithoutSso(auth, checked, "social", { ip, userAgent });
          },
        }),
  });
}

/**
 * resolveSocialUser's `beforeCreate` for a provider sign-in: an address of a domain requiring SSO
 * gets no user (nor, through auto-join, a membership) by another provider.
 */
export function socialSignUpGuard(auth: AuthContext, request: SocialRequest) {
  const source = { ip: request.ip, userAgent: request.headers.get("user-agent") };
  return (email: string) => assertSignInWithoutSso(auth, { email }, "social", source);
}

export interface FlowStart {
  callbackURL: string | undefined;
  errorCallbackURL: string | undefined;
  newUserCallbackURL: string | undefined;
  scopes: string[] | undefined;
  loginHint: string | undefined;
  requestSignUp: boolean | undefined;
  link: OAuthStateData["link"];
  /** A new user's language (sign-in/social `language`). */
  language?: string | undefined;
}

/**
 * Starts an authorization-code flow (the endpoint reference (README) /sign-in/social and /link-social): a fresh state and
 * PKCE verifier (S256, docs/decisions/ lengths) stored as the one-time state record, the browser bound
 * by cookie, and the provider's authorization URL. The redirect URI is fixed server-side: the
 * provider's /callback/{id}, or the one given (an SSO connection's, features/sso).
 */
export async function startAuthorizationFlow(
  auth: AuthContext,
  jar: CookieJar,
  provider: Pick<OAuthProvider, "id" | "createAuthorizationURL">,
  input: FlowStart,
  redirectURI = providerRedirectURI(auth, provider.id),
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
    language: input.language ?? null,
  });
  const url = provider.createAuthorizationURL({
    state,
    codeVerifier,
    redirectURI,
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

/*
 * Reads and writes the endpoints make as they are: the store's, with this instance's collections
 * (endpoints call services, never the store).
 */

export function findUserAccountByAccountId(
  auth: AuthContext,
  ...args: AfterCollections<typeof stored.findUserAccountByAccountId>
): ReturnType<typeof stored.findUserAccountByAccountId> {
  return stored.findUserAccountByAccountId(auth.collections, ...args);
}

export function findUserProviderAccount(
  auth: AuthContext,
  ...args: AfterCollections<typeof stored.findUserProviderAccount>
): ReturnType<typeof stored.findUserProviderAccount> {
  return stored.findUserProviderAccount(auth.collections, ...args);
}

export function listUserAccounts(
  auth: AuthContext,
  ...args: AfterCollections<typeof stored.listUserAccounts>
): ReturnType<typeof stored.listUserAccounts> {
  return stored.listUserAccounts(auth.collections, ...args);
}
