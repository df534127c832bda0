import type { AuthContext } from "../../context.ts";
import { normalizePassword } from "../../crypto/index.ts";
import { granted, type Outcome, refused } from "../../errors/refusal.ts";
import { isCommonPassword } from "./common-passwords.ts";
import { isContextSpecificPassword } from "./password-rules.ts";

export type PasswordRefusal =
  | "PASSWORD_TOO_SHORT"
  | "PASSWORD_TOO_LONG"
  | "PASSWORD_CONTEXT_SPECIFIC"
  | "PASSWORD_COMPROMISED";

/**
 * The rules every new password passes, in one place: sign-up, reset, change, set-password, and an
 * admin's create-user and set-user-password all call this before they hash (a test per path in
 * features/password/password-policy.test.ts). In order, cheapest first:
 * - the length rule of docs/decisions/ (PASSWORD_TOO_SHORT / PASSWORD_TOO_LONG);
 * - not the account's email address, its local part or the app's name (NIST SP 800-63B §5.1.1.2
 *   context-specific words; password-rules.ts) — PASSWORD_CONTEXT_SPECIFIC. `owner` is the account
 *   the password is for; null only where no account is known (a reset token that names nobody,
 *   answered INVALID_TOKEN next);
 * - not in the offline list of common and breached passwords, case-insensitively (NIST SP 800-63B
 *   §5.1.1.2; common-passwords.ts) — PASSWORD_COMPROMISED;
 * - not reported breached by the app's `emailAndPassword.isPasswordBreached` (an online check such
 *   as Have I Been Pwned's range API) — PASSWORD_COMPROMISED too. A hook that throws is logged and
 *   treated as "not breached": an outage of the breach service must not stop sign-ups, and the
 *   offline list has been applied already.
 * Answers a refusal value; endpoints call assertPasswordAllowed (endpoints/guards.ts) before they
 * write or consume anything (a reset token survives).
 */
export async function checkPasswordAllowed(
  auth: AuthContext,
  password: string,
  owner: { email: string } | null,
): Promise<Outcome<void, PasswordRefusal>> {
  const { minPasswordLength, maxPasswordLength, isPasswordBreached } = auth.options.emailAndPassword;
  if (password.length < minPasswordLength) return refused("PASSWORD_TOO_SHORT");
  if (password.length > maxPasswordLength) return refused("PASSWORD_TOO_LONG");
  if (owner && isContextSpecificPassword(password, { email: owner.email, appName: auth.options.appName }))
    return refused("PASSWORD_CONTEXT_SPECIFIC");
  if (await isCommonPassword(password)) return refused("PASSWORD_COMPROMISED");
  if (!isPasswordBreached) return granted(undefined);
  let breached: boolean;
  try {
    breached = (await isPasswordBreached(normalizePassword(password))) === true;
  } catch (error) {
    auth.options.logger.warn("emailAndPassword.isPasswordBreached failed; password accepted", error);
    return granted(undefined);
  }
  return breached ? refused("PASSWORD_COMPROMISED") : granted(undefined);
}
