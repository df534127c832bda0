import { decryptString, encryptString } from "../../crypto/index.ts";
import type { AccountDoc } from "../../db/documents.ts";
import type { ProviderTokens } from "./providers/types.ts";
import { joinScopes, splitScopes } from "./rules.ts";
import type { AccountTokenFields } from "./store.ts";

/**
 * Provider tokens are stored encrypted at rest (docs/decisions/: AES-256-GCM, key derived
 * from the secret): a database dump alone never yields a working provider token.
 * They leave the server only through the token endpoints, to their owner.
 */
function seal(value: string | null, secret: string): string | null {
  return value === null ? null : encryptString(value, secret);
}

/**
 * The account fields for freshly issued tokens. What the new tokens lack, the stored ones keep
 * (`keep`): a refresh without a new refresh token keeps the stored one, as providers without
 * rotation expect; an id-token sign-in that brings no access token keeps the stored access token
 * and its expiry — a sign-in must not cost the app its provider API access.
 */
export function sealTokens(
  tokens: ProviderTokens,
  secret: string,
  now: Date,
  keep?: Pick<
    AccountDoc,
    "accessToken" | "accessTokenExpiresAt" | "refreshToken" | "refreshTokenExpiresAt" | "idToken" | "scope"
  >,
): AccountTokenFields {
  const keepAccess = tokens.accessToken === null && keep !== undefined;
  const keepRefresh = tokens.refreshToken === null && keep !== undefined;
  return {
    accessToken: keepAccess ? keep.accessToken : seal(tokens.accessToken, secret),
    refreshToken: keepRefresh ? keep.refreshToken : seal(tokens.refreshToken, secret),
    idToken: tokens.idToken === null && keep ? keep.idToken : seal(tokens.idToken, secret),
    accessTokenExpiresAt: keepAccess ? keep.accessTokenExpiresAt : tokens.accessTokenExpiresAt,
    refreshTokenExpiresAt: keepRefresh ? keep.refreshTokenExpiresAt : tokens.refreshTokenExpiresAt,
    scope: tokens.scopes.length === 0 && keep ? keep.scope : joinScopes(tokens.scopes),
    updatedAt: now,
  };
}

export interface OpenedTokens {
  accessToken: string | null;
  refreshToken: string | null;
  idToken: string | null;
  accessTokenExpiresAt: Date | null;
  refreshTokenExpiresAt: Date | null;
  scopes: string[];
}

/**
 * The plain tokens of an account. A value that does not decrypt (another secret, tampered) reads as
 * absent: the caller then answers that no valid token exists rather than leaking an envelope.
 */
export function openTokens(account: AccountDoc, secret: string): OpenedTokens {
  const open = (value: string | null) => (value === null ? null : decryptString(value, secret));
  return {
    accessToken: open(account.accessToken),
    refreshToken: open(account.refreshToken),
    idToken: open(account.idToken),
    accessTokenExpiresAt: account.accessTokenExpiresAt,
    refreshTokenExpiresAt: account.refreshTokenExpiresAt,
    scopes: splitScopes(account.scope),
  };
}
