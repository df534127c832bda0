import type { AuthContext } from "../../../context.ts";
import type { SignInCompleted } from "../../../contracts/two-factor.ts";
import type { UserDoc } from "../../../db/documents.ts";
import { AuthError } from "../../../errors/auth-error.ts";
import { answerRefusal, type Outcome } from "../../../errors/refusal.ts";
import type { CookieJar } from "../../../http/cookie-jar.ts";
import { assertUserPassword, bannedUserError } from "../../users/index.ts";
import { type ActiveChallenge, admitCodeAttempt, readChallenge } from "../challenge.ts";

/**
 * The checks two-factor endpoints start with (the caller's password, a live challenge), and the
 * refusals of the services below that need more than answerRefusal (a header, the ban message).
 * Services below never throw a catalogue error: they answer null or a refusal value.
 */

/** ASVS 7.5.1 / docs/security.md: changing the second factor needs the current password. */
export async function assertCallerPassword(
  auth: AuthContext,
  user: UserDoc,
  password: string,
): Promise<void> {
  await assertUserPassword(auth, user, password);
}

/** The live challenge the cookie names, else INVALID_TWO_FACTOR_COOKIE. */
export async function requireChallenge(auth: AuthContext, jar: CookieJar): Promise<ActiveChallenge> {
  const challenge = await readChallenge(auth, jar);
  if (!challenge) throw new AuthError("INVALID_TWO_FACTOR_COOKIE");
  return challenge;
}

/** challenge.ts admitCodeAttempt, its temporary lock answered with Retry-After and X-Retry-After (like a rate limit). */
export async function admitCodeAttemptOrSay(
  ctx: { auth: AuthContext; setHeader(name: string, value: string): void },
  challenge: ActiveChallenge,
  method: "code" | "backup-code",
): Promise<void> {
  const admitted = await admitCodeAttempt(ctx.auth, challenge, method);
  if (!admitted.ok && admitted.code === "ACCOUNT_TEMPORARILY_LOCKED") {
    ctx.setHeader("Retry-After", String(admitted.retryAfterSeconds));
    ctx.setHeader("X-Retry-After", String(admitted.retryAfterSeconds));
  }
  answerRefusal(admitted);
}

/** challenge.ts completeChallenge's answer: a ban with `admin.bannedUserMessage`, like every sign-in. */
export function answerCompletion(
  auth: AuthContext,
  completed: Outcome<SignInCompleted, "INVALID_TWO_FACTOR_COOKIE" | "BANNED_USER">,
): SignInCompleted {
  if (!completed.ok && completed.code === "BANNED_USER") throw bannedUserError(auth);
  return answerRefusal(completed);
}
