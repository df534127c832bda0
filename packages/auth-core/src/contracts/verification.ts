import { z } from "zod";
import { defineContract } from "./contract.ts";
import { statusTrueSchema, type User, userSchema } from "./models.ts";
import { callbackURLField, emailField, tokenField } from "./schemas.ts";
import { type TwoFactorMethod, twoFactorMethodSchema } from "./two-factor.ts";

/**
 * The JSON answer of verify-email (without a callbackURL): the user as stored afterwards. When the
 * link signed in a two-factor user, the TwoFactorRedirect fields come along (a challenge cookie was
 * set instead of a session).
 */
export interface EmailVerified {
  status: true;
  user: User;
  twoFactorRedirect?: true;
  twoFactorMethods?: TwoFactorMethod[];
}

const emailVerifiedSchema: z.ZodType<EmailVerified> = z.strictObject({
  status: z.literal(true),
  user: userSchema,
  twoFactorRedirect: z.literal(true).optional(),
  twoFactorMethods: z.array(twoFactorMethodSchema).optional(),
});

export const sendVerificationEmailContract = defineContract({
  name: "sendVerificationEmail",
  method: "POST",
  path: "/send-verification-email",
  auth: "optional",
  body: z.strictObject({
    email: emailField,
    callbackURL: callbackURLField.optional(),
  }),
  response: statusTrueSchema,
  errors: ["VERIFICATION_EMAIL_NOT_ENABLED", "INVALID_EMAIL", "EMAIL_MISMATCH", "EMAIL_ALREADY_VERIFIED"],
  summary: "Mails a verification link; signed out, the answer never depends on the address.",
  tags: ["verification"],
});

export const verifyEmailContract = defineContract({
  name: "verifyEmail",
  method: "GET",
  path: "/verify-email",
  auth: "optional",
  setsSessionCookies: true,
  // The callbackURL is checked against the trusted origins before this runs (run-endpoint, docs/decisions/):
  // an untrusted one is a 403 and the token is not used (CVE-2024-56734).
  // A mailed link: mail trackers append parameters (utm_*), so unknown keys are stripped, never
  // refused nor passed on (review finding s9-4); the known keys keep their strict types.
  query: z.object({
    token: tokenField,
    callbackURL: callbackURLField.optional(),
  }),
  response: emailVerifiedSchema,
  // With a callbackURL, success and token failures alike redirect there (failures as `?error=`).
  answers: "json-or-redirect",
  errors: [
    "TOKEN_EXPIRED",
    "INVALID_VERIFICATION_TOKEN",
    "VERIFICATION_USER_NOT_FOUND",
    "VERIFICATION_UNAUTHORIZED",
    "EMAIL_CAN_NOT_BE_UPDATED",
    "BANNED_USER",
    "FAILED_TO_CREATE_SESSION",
  ],
  summary: "Verifies an address, or applies an email change, from a mailed link; may sign the user in.",
  notes: "May sign in (`emailVerification.autoSignInAfterVerification`).",
  tags: ["verification"],
});
