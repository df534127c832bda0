/** Pure password-reset decisions (docs/decisions/; docs/decisions/0005-passwords-and-tokens.md "Passwords and tokens"). */
import { sha256Base64Url } from "../../crypto/random.ts";

/** reset tokens are 24 chars [A-Za-z0-9]. */
export const RESET_TOKEN_LENGTH = 24;

const RESET_TOKEN_SHAPE = /^[A-Za-z0-9]{24}$/;

/**
 * the verification identifier of a reset token, `reset-password:{…}` — with the token's
 * SHA-256 in place of the token (docs/security.md): a copy of `verifications` holds no working
 * link. The token has ~143 bits, so an unsalted hash is as good as a slow one.
 */
export function resetPasswordIdentifier(token: string): string {
  return `reset-password:${sha256Base64Url(token)}`;
}

/** A token that cannot have been issued is refused without a database round trip. */
export function isResetTokenShaped(token: string): boolean {
  return RESET_TOKEN_SHAPE.test(token);
}

/** Whole minutes stated in the mail, rounded down so the mail never promises more time than there is. */
export function resetLinkMinutes(expiresInSeconds: number): number {
  return Math.max(1, Math.floor(expiresInSeconds / 60));
}

/**
 * Sets one query parameter on a callback URL (absolute or relative), keeping its other parameters
 * and fragment. The path is kept byte for byte: it was checked as a safe callback URL, and
 * re-parsing it could change what was checked.
 */
export function withQueryParam(url: string, key: string, value: string): string {
  const hashAt = url.indexOf("#");
  const beforeHash = hashAt === -1 ? url : url.slice(0, hashAt);
  const hash = hashAt === -1 ? "" : url.slice(hashAt);
  const queryAt = beforeHash.indexOf("?");
  const path = queryAt === -1 ? beforeHash : beforeHash.slice(0, queryAt);
  const params = new URLSearchParams(queryAt === -1 ? "" : beforeHash.slice(queryAt + 1));
  params.set(key, value);
  return `${path}?${params.toString()}${hash}`;
}

/**
 * Resetting is off when the feature is, and when email-and-password is: a password nobody can sign
 * in with is not worth a mail (and the mail would be a spam vector).
 */
export function isPasswordResetEnabled(config: { enabled: boolean; resetPasswordEnabled: boolean }): boolean {
  return config.enabled && config.resetPasswordEnabled;
}
