import type { ErrorCode } from "../../errors/catalogue.ts";

/**
 * Pure decisions of the email-verification flow.
 *
 * What a verification JWT is for. No requestType: the plain link of sign-up, sign-in and
 * send-verification-email. The change-email kinds carry `updateTo`.
 * - change-email-confirmation: mailed to the CURRENT address; following it moves the address to
 *   `updateTo` and resets it to unverified, or — with `user.changeEmail.verifyNewEmailFirst`
 *   — mails a change-email-verification link to the new address instead.
 * - change-email-verification: mailed to the NEW address; following it moves the address and marks it
 *   verified (the new mailbox proved itself, Better Auth #7196 hardening).
 * - post-change-verification: the plain verification of an address that was just moved; it never
 *   signs anyone in, since the new mailbox's holder is not proven to own the account (#7196).
 */
export type VerificationRequestType =
  | "change-email-confirmation"
  | "change-email-verification"
  | "post-change-verification";

export interface VerificationClaims {
  email: string;
  /** The user's id (24 hex) when the token was minted for a known user. */
  userId: string | null;
  updateTo: string | null;
  requestType: VerificationRequestType | null;
}

const REQUEST_TYPES: readonly string[] = [
  "change-email-confirmation",
  "change-email-verification",
  "post-change-verification",
];

/**
 * Reads the claims of a verified JWT payload; null when it is not an email-verification token (a JWT
 * signed for another purpose must not verify an email) or when a claim has the wrong shape.
 */
export function readVerificationClaims(payload: Record<string, unknown>): VerificationClaims | null {
  const { email, purpose, sub, updateTo, requestType } = payload;
  if (purpose !== "verify-email" || typeof email !== "string" || email === "") return null;
  if (sub !== undefined && typeof sub !== "string") return null;
  if (updateTo !== undefined && (typeof updateTo !== "string" || updateTo === "")) return null;
  if (requestType !== undefined && (typeof requestType !== "string" || !REQUEST_TYPES.includes(requestType)))
    return null;
  const claims: VerificationClaims = {
    email,
    userId: sub ?? null,
    updateTo: updateTo ?? null,
    requestType: (requestType as VerificationRequestType | undefined) ?? null,
  };
  // A change kind without its target (or a target on a plain token) was not minted by us.
  const isChange =
    claims.requestType === "change-email-confirmation" || claims.requestType === "change-email-verification";
  if (isChange !== (claims.updateTo !== null)) return null;
  return claims;
}

export type VerifyFailure =
  | "token_expired"
  | "invalid_token"
  | "user_not_found"
  | "unauthorized"
  | "email_taken";

/** JSON errors (no callbackURL): the error catalogue, 401 for the token errors, 400 for a taken address. */
export const VERIFY_FAILURE_ERRORS: Record<VerifyFailure, ErrorCode> = {
  token_expired: "TOKEN_EXPIRED",
  invalid_token: "INVALID_VERIFICATION_TOKEN",
  user_not_found: "VERIFICATION_USER_NOT_FOUND",
  unauthorized: "VERIFICATION_UNAUTHORIZED",
  email_taken: "EMAIL_CAN_NOT_BE_UPDATED",
};

/** The `error` query value on the callback redirect (the error catalogue names the first four). */
export const VERIFY_FAILURE_REDIRECT_CODES: Record<VerifyFailure, string> = {
  token_expired: "token_expired",
  invalid_token: "invalid_token",
  user_not_found: "user_not_found",
  unauthorized: "unauthorized",
  email_taken: "email_can_not_be_updated",
};

/**
 * Adds `name=value` to a callback URL (absolute or a safe relative path), keeping its existing query
 * and fragment: `/done?tab=1#x` → `/done?tab=1&error=invalid_token#x`.
 */
export function withQueryParam(url: string, name: string, value: string): string {
  const hashAt = url.indexOf("#");
  const base = hashAt === -1 ? url : url.slice(0, hashAt);
  const hash = hashAt === -1 ? "" : url.slice(hashAt);
  const pair = `${encodeURIComponent(name)}=${encodeURIComponent(value)}`;
  const separator = !base.includes("?") ? "?" : base.endsWith("?") || base.endsWith("&") ? "" : "&";
  return `${base}${separator}${pair}${hash}`;
}

/**
 * Auto sign-in after verification (option autoSignInAfterVerification) happens only on the first
 * verification of a plain token, and only for a visitor who is not signed in: a verification link is
 * stateless and valid for its whole lifetime, so a forwarded or leaked link must not keep minting
 * sessions, must not replace someone's current session (login CSRF), and a moved address's new
 * mailbox must never get a session from it (#7196).
 */
export function shouldAutoSignIn(input: {
  enabled: boolean;
  requestType: VerificationRequestType | null;
  becameVerified: boolean;
  signedIn: boolean;
}): boolean {
  return input.enabled && input.requestType === null && input.becameVerified && !input.signedIn;
}
