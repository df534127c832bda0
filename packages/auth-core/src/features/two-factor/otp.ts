import { timingSafeEqual } from "node:crypto";
import type { AuthContext } from "../../context.ts";
import { granted, type Outcome, refused } from "../../errors/refusal.ts";
import { dispatchMail, toMailUser } from "../mail-dispatch.ts";
import { findUserById } from "../users/index.ts";
import type { ActiveChallenge } from "./challenge.ts";
import { otpIdentifier, otpSendPrefix } from "./rules.ts";
import { generateOtp, macOtp } from "./service.ts";
import { claimSlot, deleteRow, deleteRowById, findRow, insertRow } from "./store.ts";

/**
 * Mails a 6-digit code for the challenge (docs/decisions/: 3 minutes). It is bound to this challenge
 * (docs/security.md) and replaces the challenge's previous code; at most `otpSendsPerChallenge`
 * mails per challenge (429 beyond), so a pending sign-in cannot be turned into a mail cannon.
 * Its attempts are the challenge's (`attemptsPerChallenge`, 5 by default).
 */
export async function sendChallengeOtp(
  auth: AuthContext,
  challenge: ActiveChallenge,
): Promise<
  Outcome<void, "OTP_NOT_ENABLED" | "TOO_MANY_REQUESTS" | "INVALID_TWO_FACTOR_COOKIE" | "MAIL_UNAVAILABLE">
> {
  const config = auth.options.twoFactor;
  if (!config.otpEnabled) return refused("OTP_NOT_ENABLED");
  const now = auth.now();
  const sends = otpSendPrefix(challenge.id);
  if (!(await claimSlot(auth.collections, sends, config.otpSendsPerChallenge, challenge.expiresAt, now))) {
    return refused("TOO_MANY_REQUESTS");
  }
  const user = await findUserById(auth.collections, challenge.userId);
  if (!user) return refused("INVALID_TWO_FACTOR_COOKIE");
  const code = generateOtp();
  const identifier = otpIdentifier(challenge.id);
  const expiresAt = new Date(now.getTime() + config.otpExpiresIn * 1000);
  await deleteRow(auth.collections, identifier);
  // A parallel send stored its code first: that one stands, and only its code is mailed.
  if (!(await insertRow(auth.collections, identifier, macOtp(auth, challenge.id, code), expiresAt, now))) {
    return refused("TOO_MANY_REQUESTS");
  }
  const hook = config.sendOTP;
  try {
    await dispatchMail(
      auth,
      "two-factor-otp",
      user,
      { code, expiresInMinutes: Math.ceil(config.otpExpiresIn / 60) },
      hook ? () => hook({ user: toMailUser(user), code }) as Promise<void> | void : undefined,
    );
  } catch (error) {
    // A code valid for minutes is not queued (docs/architecture.md "Mail"): withdrawn, and the
    // user asks again instead of waiting for a mail that will not come.
    auth.options.logger.error("two-factor code could not be mailed", error);
    await deleteRow(auth.collections, identifier);
    return refused("MAIL_UNAVAILABLE");
  }
  return granted(undefined);
}

export type OtpCheck = "ok" | "invalid" | "expired";

/** The challenge's emailed code, used once (a delete count decides between parallel right answers). */
export async function acceptChallengeOtp(
  auth: AuthContext,
  challenge: ActiveChallenge,
  code: string,
): Promise<OtpCheck> {
  const row = await findRow(auth.collections, otpIdentifier(challenge.id));
  if (!row) return "invalid";
  if (row.expiresAt <= auth.now()) return "expired";
  const given = Buffer.from(macOtp(auth, challenge.id, code));
  const stored = Buffer.from(row.value);
  if (given.length !== stored.length || !timingSafeEqual(given, stored)) return "invalid";
  return (await deleteRowById(auth.collections, row._id)) ? "ok" : "invalid";
}
