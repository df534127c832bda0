import type { AuthContext } from "../../../context.ts";
import type { UserDoc } from "../../../db/documents.ts";
import { AuthError } from "../../../errors/auth-error.ts";
import { answerRefusal } from "../../../errors/refusal.ts";
import { checkPasswordAllowed } from "../password-policy.ts";
import { proveUserPassword } from "../service.ts";

/*
 * users has no endpoints of its own: these are the answers other features' endpoints give for its
 * refusals (password-policy.ts, ban.ts), the one place where they become catalogue errors.
 */

/**
 * password-policy.ts checkPasswordAllowed for an endpoint: throws its refusal. `owner` is the
 * account the password is for (its address is a word the password may not be).
 */
export async function assertPasswordAllowed(
  auth: AuthContext,
  password: string,
  owner: { email: string } | null,
): Promise<void> {
  answerRefusal(await checkPasswordAllowed(auth, password, owner));
}

/** The answer to ban.ts checkUserNotBanned's refusal: 403 BANNED_USER, or `admin.bannedUserMessage`. */
export function bannedUserError(auth: AuthContext): AuthError {
  const message = auth.options.admin.bannedUserMessage;
  return new AuthError("BANNED_USER", message ? { message } : undefined);
}

/**
 * service.ts proveUserPassword for an endpoint that asks the signed-in caller for their password
 * (delete-user, the two-factor settings): CREDENTIAL_ACCOUNT_NOT_FOUND without a password to
 * check, INVALID_PASSWORD for a wrong one.
 */
export async function assertUserPassword(
  auth: AuthContext,
  user: Pick<UserDoc, "_id">,
  password: string,
): Promise<void> {
  const proof = await proveUserPassword(auth, user, password);
  if (proof.ok) return;
  throw new AuthError(
    proof.reason === "no-credential-account" ? "CREDENTIAL_ACCOUNT_NOT_FOUND" : "INVALID_PASSWORD",
  );
}
