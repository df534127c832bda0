import type { AuthContext } from "../../context.ts";
import { hashPassword } from "../../crypto/index.ts";
import type { UserDoc } from "../../db/documents.ts";
import { ObjectId } from "../../db/ids.ts";
import { type Granted, granted, type Refused, refused } from "../../errors/refusal.ts";
import type { CookieJar } from "../../http/cookie-jar.ts";
import {
  admitSignInAttempt,
  clearSignInFailures,
  readKnownDevice,
  type SignInRefused,
} from "../sign-in-throttle/index.ts";
import {
  findCredentialAccount,
  findUserByEmail,
  proveUserPassword,
  updateCredentialPassword,
} from "../users/index.ts";

export type SignInPasswordRefusal =
  | SignInRefused
  | Refused<"INVALID_EMAIL_OR_PASSWORD">
  | Refused<"PASSWORD_RESET_REQUIRED">;

/**
 * The password step of sign-in: the user, their credential account, the per-account throttle
 * (features/sign-in-throttle: refused before any password check, for an unknown address too), then
 * users' proveUserPassword and, for a hash of an older cost, the re-hash. INVALID_EMAIL_OR_PASSWORD
 * alike for an unknown address and a wrong password. `device`: the known-device id the cookie
 * names for this user (sign-in remembers it once the session is granted).
 */
export async function proveSignInPassword(
  auth: AuthContext,
  cookies: CookieJar,
  email: string,
  password: string,
): Promise<Granted<{ found: UserDoc; device: string | null }> | SignInPasswordRefusal> {
  const found = await findUserByEmail(auth.collections, email);
  // The account lookup runs for an unknown email too (with an id that matches nothing): on
  // FerretDB v1 a find scans its collection, so skipping it would answer an unknown email faster.
  const account = await findCredentialAccount(auth.collections, found?._id ?? new ObjectId());
  const device = readKnownDevice(auth, cookies, found?._id ?? null);
  const admitted = await admitSignInAttempt(auth, { userId: found?._id ?? null, email }, device);
  if (!admitted.ok) return admitted;
  // Same scrypt work as a real check for an unknown email: it must not answer faster (enumeration).
  const proof = await proveUserPassword(auth, found, password, { account, equalWork: true });
  if (!found || !proof.ok) return refused("INVALID_EMAIL_OR_PASSWORD");
  await clearSignInFailures(auth, found._id);
  // An admin-set password is told apart only to someone who gave it, and before the re-hash
  // below, whose write would clear the mark.
  if (proof.account.passwordResetRequired) return refused("PASSWORD_RESET_REQUIRED");
  if (proof.needsRehash) {
    // Only over the hash just checked: a reset or change landing during the two scrypt runs wins,
    // rather than being silently undone by a re-hash of the old password.
    const rehash = await hashPassword(password);
    await updateCredentialPassword(auth, proof.account, rehash, proof.account.password, false, "rehash");
  }
  return granted({ found, device });
}
