import { type SignInResult, signInEmailContract } from "../../../contracts/email-password.ts";
import type { TwoFactorRedirect } from "../../../contracts/two-factor.ts";
import { hashPassword, spendPasswordWork, verifyPassword } from "../../../crypto/index.ts";
import type { UserDoc } from "../../../db/documents.ts";
import { ObjectId } from "../../../db/ids.ts";
import { AuthError } from "../../../errors/auth-error.ts";
import { answerRefusal } from "../../../errors/refusal.ts";
import { defineEndpoint, type EndpointContext } from "../../../http/define-endpoint.ts";
import { establishSession, toUser } from "../../session/index.ts";
import {
  admitSignInAttempt,
  clearSignInFailures,
  readKnownDevice,
  rememberKnownDevice,
} from "../../sign-in-throttle/index.ts";
import {
  bannedUserError,
  findCredentialAccount,
  findUserByEmail,
  updateCredentialPassword,
} from "../../users/index.ts";
import { sendVerificationEmailInBackground } from "../../verification/index.ts";

export type { SignInResult } from "../../../contracts/email-password.ts";

export const signInEmail = defineEndpoint(signInEmailContract, {
  fieldErrors: { email: "INVALID_EMAIL" },
  async handler(ctx): Promise<SignInResult | TwoFactorRedirect> {
    const { auth, body } = ctx;
    const config = auth.options.emailAndPassword;
    if (!config.enabled) throw new AuthError("EMAIL_PASSWORD_DISABLED");
    // An over-long password is never hashed (no CPU for an attacker); it cannot be anyone's.
    if (body.password.length > config.maxPasswordLength) throw new AuthError("INVALID_EMAIL_OR_PASSWORD");
    const { found, device } = await provePassword(ctx, body.email, body.password);
    // Only now, with the password proven, may the answer reveal a ban; two-factor users get a
    // challenge instead of a session.
    const request = { cookies: ctx.cookies, ip: ctx.ip, userAgent: ctx.headers.get("user-agent") };
    const established = await establishSession(auth, request, found, {
      rememberMe: body.rememberMe !== false,
      ban: "check",
      secondFactor: "gate",
      async beforeGate(user) {
        if (config.requireEmailVerification && !user.emailVerified) {
          // a fresh link comes with the 403, only while verification mails are on; the answer
          // must not depend on the mailer — a failure is logged, never a 5xx (review finding s9-5).
          const { enabled, sendOnSignIn } = auth.options.emailVerification;
          if (enabled && sendOnSignIn)
            await sendVerificationEmailInBackground(auth, user, body.callbackURL, {
              kind: "client",
              address: ctx.ip,
            });
          throw new AuthError("EMAIL_NOT_VERIFIED");
        }
        rememberKnownDevice(auth, ctx.cookies, user._id, device);
      },
    });
    if (established.kind === "banned") throw bannedUserError(auth);
    if (established.kind === "challenge") return established.answer;
    return {
      redirect: body.callbackURL !== undefined,
      token: established.session.token,
      url: body.callbackURL ?? null,
      user: toUser(established.user),
    };
  },
});

/**
 * The password step of sign-in: the user, their credential account, the per-account throttle
 * (features/sign-in-throttle: a 429 or 403 before any password check, for an unknown address too),
 * then the check and, for a hash of an older cost, the re-hash. Throws INVALID_EMAIL_OR_PASSWORD
 * alike for an unknown address and a wrong password.
 */
async function provePassword(
  ctx: Pick<EndpointContext<unknown, unknown>, "auth" | "cookies" | "setHeader">,
  email: string,
  password: string,
): Promise<{ found: UserDoc; device: string | null }> {
  const { auth } = ctx;
  const found = await findUserByEmail(auth.collections, email);
  // The account lookup runs for an unknown email too (with an id that matches nothing): on
  // FerretDB v1 a find scans its collection, so skipping it would answer an unknown email faster.
  const account = await findCredentialAccount(auth.collections, found?._id ?? new ObjectId());
  const device = readKnownDevice(auth, ctx.cookies, found?._id ?? null);
  const admitted = await admitSignInAttempt(auth, { userId: found?._id ?? null, email }, device);
  if (!admitted.ok) {
    if (admitted.code === "ACCOUNT_TEMPORARILY_LOCKED") {
      // RFC 9110 Retry-After, and X-Retry-After as the rate limiter and two-factor lock answer.
      ctx.setHeader("Retry-After", String(admitted.retryAfterSeconds));
      ctx.setHeader("X-Retry-After", String(admitted.retryAfterSeconds));
    }
    answerRefusal(admitted);
  }
  if (!found || !account?.password) {
    // Same scrypt work as a real check: an unknown email must not answer faster (enumeration).
    await spendPasswordWork(password);
    throw new AuthError("INVALID_EMAIL_OR_PASSWORD");
  }
  const check = await verifyPassword(account.password, password);
  if (!check.valid) throw new AuthError("INVALID_EMAIL_OR_PASSWORD");
  await clearSignInFailures(auth, found._id);
  // An admin-set password (J15) is told apart only to someone who gave it, and before the re-hash
  // below, whose write would clear the mark.
  if (account.passwordResetRequired) throw new AuthError("PASSWORD_RESET_REQUIRED");
  if (check.needsRehash) {
    // Only over the hash just checked: a reset or change landing during the two scrypt runs wins,
    // rather than being silently undone by a re-hash of the old password.
    const rehash = await hashPassword(password);
    await updateCredentialPassword(auth, account, rehash, account.password);
  }
  return { found, device };
}
