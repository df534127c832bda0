import type { AuthContext } from "../../context.ts";
import type { TwoFactorRedirect } from "../../contracts/two-factor.ts";
import type { UserDoc } from "../../db/documents.ts";
import type { CookieJar } from "../../http/cookie-jar.ts";
import { createChallenge } from "./challenge.ts";
import { availableMethods } from "./rules.ts";
import { isTrustedDevice } from "./trusted-device.ts";

export type { TwoFactorRedirect } from "../../contracts/two-factor.ts";

/**
 * THE two-factor gate of every session-minting sign-in path (docs/decisions/0014-two-factor.md "Two-factor": every
 * way of signing in that mints a session is gated): sign-in/email, verify-email auto sign-in, social
 * sign-in. Only the session pipeline calls it (features/session establishSession, secondFactor
 * "gate"; createAuth hands it over), once the first factor is proven and the ban check passed, right
 * before the session is created:
 * - `null`: go on and mint the session — two-factor is off for the user (no database command), or
 *   the request carries the user's live trusted-device cookie (one read);
 * - otherwise: mint NOTHING and answer the returned `{ twoFactorRedirect: true, twoFactorMethods }`.
 *   A challenge row is stored and its signed cookie set on `ctx.cookies` (10 minutes); the
 *   /two-factor/verify-* endpoints then mint the session, with this `rememberMe`.
 */
export async function gateSessionMint(
  ctx: { auth: AuthContext; cookies: CookieJar },
  user: UserDoc,
  options: { rememberMe: boolean },
): Promise<TwoFactorRedirect | null> {
  if (user.twoFactorEnabled !== true) return null;
  if (await isTrustedDevice(ctx.auth, ctx.cookies, user._id)) return null;
  await createChallenge(ctx.auth, ctx.cookies, user, !options.rememberMe);
  return {
    twoFactorRedirect: true,
    twoFactorMethods: availableMethods(ctx.auth.options.twoFactor.otpEnabled),
  };
}
