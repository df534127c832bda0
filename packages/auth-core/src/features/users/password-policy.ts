import type { AuthContext } from "../../context.ts";
import { normalizePassword } from "../../crypto/index.ts";
import { AuthError } from "../../errors/auth-error.ts";
import { isCommonPassword } from "./common-passwords.ts";

/**
 * The rules every new password passes, in one place: sign-up, reset, change, set-password, and an
 * admin's create-user and set-user-password all call this before they hash (a test per path in
 * features/password/password-policy.test.ts). In order, cheapest first:
 * - the length rule of docs/decisions.md (PASSWORD_TOO_SHORT / PASSWORD_TOO_LONG);
 * - not in the offline list of common and breached passwords, case-insensitively (NIST SP 800-63B
 *   §5.1.1.2; common-passwords.ts) — PASSWORD_COMPROMISED;
 * - not reported breached by the app's `emailAndPassword.isPasswordBreached` (an online check such
 *   as Have I Been Pwned's range API) — PASSWORD_COMPROMISED too. A hook that throws is logged and
 *   treated as "not breached": an outage of the breach service must not stop sign-ups, and the
 *   offline list has been applied already.
 * Throws, so every caller refuses before it writes or consumes anything (a reset token survives).
 */
export async function assertPasswordAllowed(auth: AuthContext, password: string): Promise<void> {
  const { minPasswordLength, maxPasswordLength, isPasswordBreached } = auth.options.emailAndPassword;
  if (password.length < minPasswordLength) throw new AuthError("PASSWORD_TOO_SHORT");
  if (password.length > maxPasswordLength) throw new AuthError("PASSWORD_TOO_LONG");
  if (await isCommonPassword(password)) throw new AuthError("PASSWORD_COMPROMISED");
  if (!isPasswordBreached) return;
  let breached: boolean;
  try {
    breached = (await isPasswordBreached(normalizePassword(password))) === true;
  } catch (error) {
    auth.options.logger.warn("emailAndPassword.isPasswordBreached failed; password accepted", error);
    return;
  }
  if (breached) throw new AuthError("PASSWORD_COMPROMISED");
}
