import { setTimeout as sleep } from "node:timers/promises";
import type { AuthContext } from "../../context.ts";
import { generateRandomString } from "../../crypto/index.ts";
import type { AccountDoc } from "../../db/documents.ts";
import type { ObjectId } from "../../db/ids.ts";
import { parseId } from "../../db/ids.ts";
import { AuthError } from "../../errors/auth-error.ts";
import { ERROR_CATALOGUE } from "../../errors/catalogue.ts";
import type { SessionWithUser } from "../session/index.ts";
import { findVerification } from "../verification/index.ts";
import { type OpenedTokens, openTokens, sealTokens } from "./account-tokens.ts";
import { findProvider } from "./provider-access.ts";
import type { OAuthProvider, ProviderTokens } from "./providers/types.ts";
import { STATE_LENGTH, shouldRefreshAccessToken } from "./rules.ts";
import { saveAccountTokens } from "./service.ts";
import {
  deleteExpiredClaim,
  findAccountById,
  findUserProviderAccount,
  insertRefreshClaim,
  releaseRefreshClaim,
} from "./store.ts";

export interface TokenRequest {
  providerId: string;
  accountId?: string | undefined;
  userId?: string | undefined;
}

/**
 * the token endpoints need a session; server code (auth.api) may name a user instead.
 * Over HTTP a `userId` is never honoured — it would read anyone's provider tokens.
 */
export function resolveTokenOwner(
  session: SessionWithUser | null,
  isServerCall: boolean,
  userId: string | undefined,
): ObjectId {
  if (session) return session.user._id;
  if (!isServerCall) throw new AuthError("UNAUTHORIZED");
  const id = userId === undefined ? null : parseId(userId);
  if (!id) throw new AuthError("USER_ID_OR_SESSION_REQUIRED");
  return id;
}

/** the error catalogue "Provider {id} is not supported", with the id filled in. */
export function providerNotSupported(providerId: string): AuthError {
  const message = ERROR_CATALOGUE.PROVIDER_NOT_SUPPORTED.message.replace("{id}", providerId);
  return new AuthError("PROVIDER_NOT_SUPPORTED", { message });
}

/** The configured provider and the owner's account of it; catalogue errors when either is missing. */
export async function findTokenAccount(
  auth: AuthContext,
  userId: ObjectId,
  request: TokenRequest,
): Promise<{ provider: OAuthProvider; account: AccountDoc }> {
  const provider = await findProvider(auth, request.providerId);
  if (!provider) throw providerNotSupported(request.providerId);
  const account = await findUserProviderAccount(auth.collections, userId, provider.id, request.accountId);
  if (!account) throw new AuthError("ACCOUNT_NOT_FOUND");
  return { provider, account };
}

/**
 * Refreshes at the provider and stores the new tokens (encrypted); null when the provider refused.
 * One refresh per account at a time (a unique-insert claim, exact on FerretDB too): providers that
 * rotate refresh tokens accept each one once — and some revoke the whole grant when one is reused —
 * so concurrent requests near expiry wait for the refresh in flight and share its result.
 */
async function refreshAndStore(
  auth: AuthContext,
  provider: OAuthProvider,
  account: AccountDoc,
  refreshToken: string,
): Promise<OpenedTokens | null> {
  const refresh = provider.refreshAccessToken;
  if (!refresh) return null;
  const claim = `token-refresh:${account._id.toHexString()}`;
  const holder = await claimRefresh(auth, claim);
  if (holder === null) return awaitRefreshInFlight(auth, account, claim);
  try {
    // A refresh that finished between our read and our claim already did the work.
    const current = await findAccountById(auth.collections, account._id);
    if (!current) return null;
    if (current.accessToken !== account.accessToken) return openTokens(current, auth.options.secret);
    let fresh: ProviderTokens;
    try {
      fresh = await refresh(refreshToken);
    } catch (error) {
      auth.options.logger.warn(`token refresh failed for provider ${provider.id}`, (error as Error).message);
      return null;
    }
    const fields = sealTokens(fresh, auth.options.secret, auth.now(), account);
    // A refused write still answers with the tokens just issued: the provider already rotated them.
    const written = (await saveAccountTokens(auth, account._id, fields)) ?? fields;
    return openTokens({ ...account, ...written }, auth.options.secret);
  } finally {
    await releaseRefreshClaim(auth.collections, claim, holder);
  }
}

/**
 * A claim lives longer than any refresh can take (the provider call is cut at providerTimeoutMs;
 * the margin covers the reads and the token write around it), so a live holder's claim never
 * expires under it; a crashed holder's blocks refreshes of that account for at most this long.
 */
const REFRESH_CLAIM_MARGIN_MS = 30_000;
const REFRESH_POLL_MS = 50;

/** The claim's nonce when this request now holds the refresh; null when another one does. */
async function claimRefresh(auth: AuthContext, claim: string): Promise<string | null> {
  const now = auth.now();
  const lifetime = auth.options.advanced.providerTimeoutMs + REFRESH_CLAIM_MARGIN_MS;
  const expiresAt = new Date(now.getTime() + lifetime);
  // The nonce names this holder: its release removes its own claim, never a successor's.
  const holder = generateRandomString(STATE_LENGTH);
  if (await insertRefreshClaim(auth.collections, claim, holder, expiresAt, now)) return holder;
  // A claim left by a holder that died: whoever deletes it (a delete count) may claim again.
  if (!(await deleteExpiredClaim(auth.collections, claim, now))) return null;
  return (await insertRefreshClaim(auth.collections, claim, holder, expiresAt, now)) ? holder : null;
}

/** Waits for the refresh another request holds; its stored tokens, or null when it failed. */
async function awaitRefreshInFlight(
  auth: AuthContext,
  account: AccountDoc,
  claim: string,
): Promise<OpenedTokens | null> {
  const deadline = Date.now() + auth.options.advanced.providerTimeoutMs + 1000;
  while (Date.now() < deadline) {
    await sleep(REFRESH_POLL_MS);
    const [current, held] = await Promise.all([
      findAccountById(auth.collections, account._id),
      findVerification(auth.collections, claim, auth.now()),
    ]);
    if (!current) return null;
    if (current.accessToken !== account.accessToken) return openTokens(current, auth.options.secret);
    if (!held) return null;
  }
  return null;
}

/**
 * an access token expiring in under 5 s is refreshed first — and so is a missing (or
 * unreadable) one while a refresh token exists. Without a way to refresh, a token that has not yet
 * expired is still handed out; an expired (or unreadable) one is not.
 */
export async function getValidAccessToken(
  auth: AuthContext,
  provider: OAuthProvider,
  account: AccountDoc,
): Promise<OpenedTokens> {
  const tokens = openTokens(account, auth.options.secret);
  const now = auth.now();
  const due = !tokens.accessToken || shouldRefreshAccessToken(tokens.accessTokenExpiresAt, now);
  if (due && tokens.refreshToken) {
    const refreshed = await refreshAndStore(auth, provider, account, tokens.refreshToken);
    if (refreshed?.accessToken) return refreshed;
  }
  const expired = tokens.accessTokenExpiresAt !== null && tokens.accessTokenExpiresAt <= now;
  if (!tokens.accessToken || expired) throw new AuthError("FAILED_TO_GET_ACCESS_TOKEN");
  return tokens;
}

/** POST /refresh-token: always at the provider. */
export async function forceRefresh(
  auth: AuthContext,
  provider: OAuthProvider,
  account: AccountDoc,
): Promise<OpenedTokens> {
  if (!provider.refreshAccessToken) throw new AuthError("TOKEN_REFRESH_NOT_SUPPORTED");
  const { refreshToken } = openTokens(account, auth.options.secret);
  if (!refreshToken) throw new AuthError("FAILED_TO_REFRESH_ACCESS_TOKEN");
  const refreshed = await refreshAndStore(auth, provider, account, refreshToken);
  if (!refreshed?.accessToken) throw new AuthError("FAILED_TO_REFRESH_ACCESS_TOKEN");
  return refreshed;
}
