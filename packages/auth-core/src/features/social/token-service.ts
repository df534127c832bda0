import { setTimeout as sleep } from "node:timers/promises";
import type { AuthContext } from "../../context.ts";
import { generateRandomString } from "../../crypto/index.ts";
import type { AccountDoc } from "../../db/documents.ts";
import { granted, type Outcome, refused } from "../../errors/refusal.ts";
import { findVerification } from "../verification/index.ts";
import { type OpenedTokens, openTokens, sealTokens } from "./account-tokens.ts";
import type { OAuthProvider, ProviderTokens } from "./providers/types.ts";
import { STATE_LENGTH, shouldRefreshAccessToken } from "./rules.ts";
import { saveAccountTokens } from "./service.ts";
import { deleteExpiredClaim, findAccountById, insertRefreshClaim, releaseRefreshClaim } from "./store.ts";

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
): Promise<Outcome<OpenedTokens, "FAILED_TO_GET_ACCESS_TOKEN">> {
  const tokens = openTokens(account, auth.options.secret);
  const now = auth.now();
  const due = !tokens.accessToken || shouldRefreshAccessToken(tokens.accessTokenExpiresAt, now);
  if (due && tokens.refreshToken) {
    const refreshed = await refreshAndStore(auth, provider, account, tokens.refreshToken);
    if (refreshed?.accessToken) return granted(refreshed);
  }
  const expired = tokens.accessTokenExpiresAt !== null && tokens.accessTokenExpiresAt <= now;
  if (!tokens.accessToken || expired) return refused("FAILED_TO_GET_ACCESS_TOKEN");
  return granted(tokens);
}

/** POST /refresh-token: always at the provider. */
export async function forceRefresh(
  auth: AuthContext,
  provider: OAuthProvider,
  account: AccountDoc,
): Promise<Outcome<OpenedTokens, "TOKEN_REFRESH_NOT_SUPPORTED" | "FAILED_TO_REFRESH_ACCESS_TOKEN">> {
  if (!provider.refreshAccessToken) return refused("TOKEN_REFRESH_NOT_SUPPORTED");
  const { refreshToken } = openTokens(account, auth.options.secret);
  if (!refreshToken) return refused("FAILED_TO_REFRESH_ACCESS_TOKEN");
  const refreshed = await refreshAndStore(auth, provider, account, refreshToken);
  if (!refreshed?.accessToken) return refused("FAILED_TO_REFRESH_ACCESS_TOKEN");
  return granted(refreshed);
}
