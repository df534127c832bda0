import { z } from "zod";
import type { AuthContext } from "../../context.ts";
import { parseId } from "../../db/ids.ts";
import { isAuthError } from "../../errors/auth-error.ts";
import type { TwoFactorRedirect } from "../two-factor/index.ts";
import { findUserById } from "../users/index.ts";
import { findProvider, providerRedirectURI, providerSettings } from "./provider-access.ts";
import { type OAuthProvider, ProviderError } from "./providers/types.ts";
import { type CallbackErrorCode, withErrorQuery } from "./rules.ts";
import { type SocialRequest, signInSocialUser, socialSignUpGuard } from "./service.ts";
import { linkSocialAccount, resolveSocialUser, type SocialIdentity } from "./sign-in-outcome.ts";
import { consumeOAuthState, type OAuthStateData, stashFormPost } from "./state.ts";

/** the endpoint reference (docs/reference.md) GET|POST /callback/{id} parameters; anything else a provider adds is ignored. */
const callbackParamsSchema = z.object({
  code: z.string().min(1).max(4096).optional(),
  state: z.string().min(1).max(256).optional(),
  error: z.string().min(1).max(256).optional(),
  error_description: z.string().max(1024).optional(),
  device_id: z.string().min(1).max(512).optional(),
  user: z.string().max(4096).optional(),
});
type CallbackParams = z.output<typeof callbackParamsSchema>;

/**
 * A provider's form_post to /callback/{id} (Apple), as the URL of the GET it becomes: the code and
 * the `user` JSON go to the state record (state.ts stashFormPost), everything else (state, error…)
 * stays in the query.
 */
export async function forwardFormPost(
  auth: AuthContext,
  providerId: string,
  raw: Record<string, unknown>,
): Promise<string> {
  const { code, user, ...rest } = raw;
  const target = new URL(`${auth.apiURL}/callback/${encodeURIComponent(providerId)}`);
  for (const [key, value] of Object.entries(rest)) {
    if (typeof value === "string") target.searchParams.set(key, value);
  }
  const state = callbackParamsSchema.shape.state.safeParse(rest.state);
  const posted = formPostFields.safeParse({ code, user });
  if (state.data && posted.success && (posted.data.code || posted.data.user))
    await stashFormPost(auth, state.data, posted.data);
  return target.toString();
}

const formPostFields = callbackParamsSchema.pick({ code: true, user: true });

/** Thrown inside the flow to leave it for an error redirect; never escapes `completeCallback`. */
class CallbackFailure extends Error {
  constructor(
    readonly code: CallbackErrorCode | string,
    readonly description: string | null = null,
  ) {
    super(code);
  }
}

function defaultErrorURL(auth: AuthContext): string {
  return `${auth.apiURL}/error`;
}

/** Without a callbackURL in the state, the application root of the base URL (null without one). */
function defaultCallbackURL(auth: AuthContext): string | null {
  return auth.options.baseURL ? `${new URL(auth.options.baseURL).origin}/` : null;
}

/**
 * Runs a provider's return to /callback/{id} and answers where to send the browser: the state's
 * callbackURL (newUserCallbackURL for a new user) on success; on failure its errorCallbackURL, or
 * the /error page, with `error` (and the provider's `error_description`) in the query. Errors
 * before a state is established always go to the /error page: nothing a stranger chose.
 */
export async function completeCallback(
  auth: AuthContext,
  request: SocialRequest,
  providerId: string,
  raw: Record<string, unknown>,
): Promise<string> {
  const parsed = callbackParamsSchema.safeParse(raw);
  if (!parsed.success) return withErrorQuery(defaultErrorURL(auth), "invalid_callback_request");
  const params = parsed.data;
  if (!params.state) {
    if (params.error) return withErrorQuery(defaultErrorURL(auth), params.error, params.error_description);
    return withErrorQuery(defaultErrorURL(auth), "state_not_found");
  }
  const check = await consumeOAuthState(auth, request.cookies, params.state);
  if (!check.ok) {
    const code = check.reason === "mismatch" ? "state_mismatch" : "please_restart_the_process";
    return withErrorQuery(defaultErrorURL(auth), code);
  }
  const state = check.data;
  // A form_post callback's code and `user` were kept on the state record, not put in the URL.
  const merged = check.posted ? { ...params, ...check.posted } : params;
  try {
    return await finishFlow(auth, request, providerId, merged, state);
  } catch (error) {
    if (!(error instanceof CallbackFailure)) throw error;
    return withErrorQuery(state.errorURL ?? defaultErrorURL(auth), error.code, error.description);
  }
}

async function finishFlow(
  auth: AuthContext,
  request: SocialRequest,
  providerId: string,
  params: CallbackParams,
  state: OAuthStateData,
): Promise<string> {
  // RFC 6749 §4.1.2.1: the provider's own refusal, passed through.
  if (params.error) throw new CallbackFailure(params.error, params.error_description ?? null);
  const provider = await findProvider(auth, providerId).catch((error: unknown) => {
    if (error instanceof ProviderError) return null; // discovery failed: the provider is unreachable
    throw error;
  });
  if (!provider) throw new CallbackFailure("oauth_provider_not_found");
  // A state issued for another provider (mix-up) is not this callback's.
  if (provider.id !== state.providerId) throw new CallbackFailure("invalid_callback_request");
  if (!params.code) throw new CallbackFailure("no_code");
  const identity = await fetchIdentity(auth, provider, params, state);
  const callbackURL = state.callbackURL ?? defaultCallbackURL(auth);
  if (callbackURL === null) throw new CallbackFailure("no_callback_url");
  if (state.link) {
    await linkToStateUser(auth, state.link.userId, identity);
    return callbackURL;
  }
  const settings = providerSettings(auth, provider.id);
  const outcome = await resolveSocialUser(auth, identity, {
    disabled: settings?.disableSignUp ?? false,
    implicitDisabled: settings?.disableImplicitSignUp ?? false,
    requested: state.requestSignUp,
    language: state.language,
    beforeCreate: socialSignUpGuard(auth, request),
  }).catch(toSsoRequiredFailure);
  if (!outcome.ok) throw new CallbackFailure(outcome.error);
  const destination = outcome.isNewUser ? (state.newUserURL ?? callbackURL) : callbackURL;
  const minted = await signInSocialUser(auth, request, outcome).catch(toCallbackFailure);
  if (minted.kind === "banned") throw new CallbackFailure("banned");
  if (minted.kind === "challenge") return twoFactorPageURL(auth, destination, minted.answer);
  return destination;
}

/** A domain requiring SSO refused the address: the callback's own error code. */
function toSsoRequiredFailure(error: unknown): never {
  if (isAuthError(error) && error.code === "SSO_REQUIRED") throw new CallbackFailure("sso_required");
  throw error;
}

/** A catalogue refusal on the way to a session, as the callback's error code. */
function toCallbackFailure(error: unknown): never {
  if (isAuthError(error))
    throw new CallbackFailure(error.code === "SSO_REQUIRED" ? "sso_required" : "unable_to_create_session");
  throw error;
}

/**
 * Where a browser goes when the second factor is still due after a provider sign-in: the app's
 * two-factor page (`twoFactor.twoFactorPage`, a same-site path checked at startup) with the
 * methods on offer and the flow's destination, which the page follows once a code is verified.
 * The challenge cookie is already set; no session exists yet.
 */
export function twoFactorPageURL(auth: AuthContext, destination: string, answer: TwoFactorRedirect): string {
  const query = new URLSearchParams({
    twoFactorRedirect: "true",
    twoFactorMethods: answer.twoFactorMethods.join(","),
    callbackURL: destination,
  });
  return `${auth.options.twoFactor.twoFactorPage}?${query.toString()}`;
}

/**
 * One call to the provider. Any failure becomes the flow's error redirect (the user gets a page,
 * not a 500); a ProviderError is the provider's doing and logged as a warning, anything else is a
 * bug and logged as an error.
 */
async function callProvider<T>(
  auth: AuthContext,
  provider: OAuthProvider,
  failure: CallbackErrorCode,
  run: () => Promise<T>,
): Promise<T> {
  try {
    return await run();
  } catch (error) {
    const message = `social sign-in with ${provider.id} failed (${failure})`;
    const detail = error instanceof Error ? error.message : String(error);
    if (error instanceof ProviderError) auth.options.logger.warn(message, detail);
    else auth.options.logger.error(message, detail);
    throw new CallbackFailure(failure);
  }
}

/** Code → tokens (PKCE verifier from the state) → id-token nonce check → profile. */
async function fetchIdentity(
  auth: AuthContext,
  provider: OAuthProvider,
  params: CallbackParams,
  state: OAuthStateData,
): Promise<SocialIdentity> {
  const tokens = await callProvider(auth, provider, "invalid_code", () =>
    provider.exchangeCode({
      code: params.code ?? "",
      codeVerifier: state.codeVerifier,
      redirectURI: providerRedirectURI(auth, provider.id),
      ...(params.device_id === undefined ? {} : { deviceId: params.device_id }),
    }),
  );
  const verify = provider.verifyIdToken;
  // OIDC Core §3.1.3.7 / ASVS 10.5.1: an id token from the code exchange must carry this flow's
  // nonce (and verify), or it was minted for another transaction.
  if (tokens.idToken && verify && state.nonce !== null) {
    const idToken = tokens.idToken;
    const nonce = state.nonce;
    const check = await callProvider(auth, provider, "unable_to_get_user_info", () => verify(idToken, nonce));
    if (!check.ok) throw new CallbackFailure("unable_to_get_user_info");
  }
  const profile = await callProvider(auth, provider, "unable_to_get_user_info", () =>
    provider.getUserProfile(tokens, { user: parseAppleUser(params.user) }),
  );
  if (!profile) throw new CallbackFailure("unable_to_get_user_info");
  return { providerId: provider.id, profile, tokens };
}

/** Apple's form_post `user` field is JSON (name, email) sent on the first consent only. */
function parseAppleUser(value: string | undefined): unknown {
  if (value === undefined) return undefined;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return undefined;
  }
}

async function linkToStateUser(
  auth: AuthContext,
  userHexId: string,
  identity: SocialIdentity,
): Promise<void> {
  const userId = parseId(userHexId);
  const user = userId ? await findUserById(auth.collections, userId) : null;
  if (!user) throw new CallbackFailure("unable_to_link_account");
  const linked = await linkSocialAccount(
    auth,
    { userId: user._id, email: user.email, emailVerified: user.emailVerified },
    identity,
  );
  if (!linked.ok) throw new CallbackFailure(linked.error);
}
