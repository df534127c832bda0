import { z } from "zod";
import { defineContract } from "./contract.ts";
import {
  type Session,
  sessionSchema,
  statusTrueSchema,
  successTrueSchema,
  type User,
  userSchema,
} from "./models.ts";
import { callbackURLField, emailField, languageField, nameField, passwordField } from "./schemas.ts";
import { twoFactorRedirectSchema } from "./two-factor.ts";

/*
 * Sign-in without a password (features/passwordless, docs/passwordless.md), with the paths and
 * payloads of Better Auth's magicLink and emailOTP plugins. One sign-in request mails one link and
 * one code; either signs in, and using one spends both.
 */

/** A code as typed: anything up to 32 characters (a wrong shape is answered INVALID_OTP, not 400 VALIDATION_ERROR). */
const otpField = z.string().max(32);
/** A link's token as mailed; a wrong one is answered INVALID_TOKEN. */
const linkTokenField = z.string().max(256);
const otpTypeField = z.enum(["sign-in", "email-verification", "forget-password"]);

/** A passwordless sign-in that minted a session (a two-factor user gets a TwoFactorRedirect instead). */
export interface PasswordlessSignIn {
  token: string;
  user: User;
}

const passwordlessSignInSchema: z.ZodType<PasswordlessSignIn> = z.strictObject({
  token: z.string(),
  user: userSchema,
});

/** The mailed link's sign-in, as JSON (no callbackURL): Better Auth's magic-link answer. */
export interface MagicLinkSignIn extends PasswordlessSignIn {
  session: Session;
}

const magicLinkSignInSchema: z.ZodType<MagicLinkSignIn> = z.strictObject({
  token: z.string(),
  user: userSchema,
  session: sessionSchema,
});

export interface EmailVerifiedByOTP {
  status: true;
  /** The new session's token with `emailVerification.autoSignInAfterVerification`, else null. */
  token: string | null;
  user: User;
}

const emailVerifiedByOTPSchema: z.ZodType<EmailVerifiedByOTP> = z.strictObject({
  status: z.literal(true),
  token: z.string().nullable(),
  user: userSchema,
});

const CODE_ERRORS = [
  "NOT_FOUND",
  "INVALID_EMAIL",
  "INVALID_OTP",
  "OTP_EXPIRED",
  "TOO_MANY_ATTEMPTS",
] as const;
const THROTTLE_ERRORS = ["ACCOUNT_TEMPORARILY_LOCKED", "SIGN_IN_LOCKED"] as const;
const SIGN_IN_ERRORS = [
  "BANNED_USER",
  // An address whose verified domain requires its organization's SSO (features/sso-domains).
  "SSO_REQUIRED",
  "SIGNUP_DISABLED",
  "UNABLE_TO_CREATE_USER",
  "FAILED_TO_CREATE_SESSION",
] as const;

export const signInMagicLinkContract = defineContract({
  name: "signInMagicLink",
  method: "POST",
  path: "/sign-in/magic-link",
  auth: "none",
  body: z.strictObject({
    email: emailField,
    /** Only for an address nobody has yet: the new user's name. */
    name: nameField.optional(),
    callbackURL: callbackURLField.optional(),
    newUserCallbackURL: callbackURLField.optional(),
    errorCallbackURL: callbackURLField.optional(),
    /** Better Auth passes it to its mail hook; accepted and ignored here. */
    metadata: z.record(z.string(), z.unknown()).optional(),
    /** The mail's language for an address nobody has yet, stored on the user it signs up. */
    language: languageField.optional(),
  }),
  response: statusTrueSchema,
  // SSO_REQUIRED: the address's verified domain requires its organization's SSO (the same answer
  // for every address of the domain).
  errors: ["NOT_FOUND", "INVALID_EMAIL", "SSO_REQUIRED", "MAIL_UNAVAILABLE"],
  summary:
    "Mails a sign-in link (and, with emailOTP on, a code); the answer never tells whether the address has an account.",
  tags: ["passwordless"],
});

const magicLinkQuery = z.object({
  token: linkTokenField,
  callbackURL: callbackURLField.optional(),
  newUserCallbackURL: callbackURLField.optional(),
  errorCallbackURL: callbackURLField.optional(),
});

/**
 * The mailed link. Mail scanners open links before people do, so a GET (or HEAD) signs nobody in
 * and spends nothing: it answers a page asking to confirm (or redirects to `magicLink.confirmURL`),
 * whose POST signs in.
 */
export const magicLinkConfirmPageContract = defineContract({
  name: "magicLinkConfirmPage",
  method: "GET",
  path: "/magic-link/verify",
  auth: "none",
  // A mailed link: mail trackers append parameters (utm_*), so unknown keys are stripped.
  query: magicLinkQuery,
  response: z.string(),
  answers: "html-or-redirect",
  errors: ["NOT_FOUND"],
  summary: "The mailed sign-in link: a page that asks to confirm; it signs nobody in and spends nothing.",
  notes:
    "Redirects to `magicLink.confirmURL` when the app has one, or to errorCallbackURL/callbackURL with `error=INVALID_TOKEN` for a dead link.",
  client: false,
  tags: ["passwordless"],
});

/** Whose sign-in a live mailed link is: what an app's confirmation page names ("Sign in as …?"). */
export interface MagicLinkConfirmation {
  email: string;
}

const magicLinkConfirmationSchema: z.ZodType<MagicLinkConfirmation> = z.strictObject({ email: z.string() });

/**
 * For the app's page at `magicLink.confirmURL`: it names the account from the stored link, never
 * from its own URL, so a link someone else requested cannot pass for the reader's (docs/passwordless.md).
 * Reads only, like the link's GET: it spends nothing.
 */
export const magicLinkConfirmationContract = defineContract({
  name: "getMagicLinkConfirmation",
  method: "GET",
  path: "/magic-link/confirmation",
  auth: "none",
  query: z.object({ token: linkTokenField }),
  response: magicLinkConfirmationSchema,
  errors: ["NOT_FOUND", "INVALID_TOKEN"],
  summary: "The address a live mailed link signs in, for the app's confirmation page; spends nothing.",
  notes: "INVALID_TOKEN for a link that is used, expired or replaced by a newer mail.",
  client: "magicLink.confirmation",
  tags: ["passwordless"],
});

export const magicLinkVerifyContract = defineContract({
  name: "magicLinkVerify",
  method: "POST",
  path: "/magic-link/verify",
  auth: "none",
  setsSessionCookies: true,
  body: z.strictObject({
    token: linkTokenField,
    callbackURL: callbackURLField.optional(),
    newUserCallbackURL: callbackURLField.optional(),
    errorCallbackURL: callbackURLField.optional(),
  }),
  response: z.union([magicLinkSignInSchema, twoFactorRedirectSchema]),
  answers: "json-or-redirect",
  errors: ["NOT_FOUND", "INVALID_TOKEN", ...SIGN_IN_ERRORS],
  summary: "Signs in with a mailed link's token (once); the confirmation page posts here.",
  notes:
    "With a callbackURL, redirects there (newUserCallbackURL for a new user; errorCallbackURL or callbackURL with `?error=` on failure).",
  tags: ["passwordless"],
});

export const sendVerificationOTPContract = defineContract({
  name: "sendVerificationOTP",
  method: "POST",
  path: "/email-otp/send-verification-otp",
  auth: "none",
  body: z.strictObject({
    email: emailField,
    type: otpTypeField,
    /** The mail's language for an address nobody has yet (type sign-in), stored on the user it signs up. */
    language: languageField.optional(),
  }),
  response: successTrueSchema,
  errors: ["NOT_FOUND", "INVALID_EMAIL", "RESET_PASSWORD_DISABLED", "SSO_REQUIRED", "MAIL_UNAVAILABLE"],
  summary:
    "Mails a 6-digit code for sign-in, email verification or a password reset; the answer never tells whether the address has an account.",
  tags: ["passwordless"],
});

export const signInEmailOTPContract = defineContract({
  name: "signInEmailOTP",
  method: "POST",
  path: "/sign-in/email-otp",
  auth: "none",
  setsSessionCookies: true,
  body: z.strictObject({
    email: emailField,
    otp: otpField,
    /** Only for an address nobody has yet: the new user's name. */
    name: nameField.optional(),
    rememberMe: z.boolean().optional(),
  }),
  response: z.union([passwordlessSignInSchema, twoFactorRedirectSchema]),
  errors: [...CODE_ERRORS, ...THROTTLE_ERRORS, ...SIGN_IN_ERRORS],
  summary: "Signs in with a mailed code; an address nobody has is signed up unless `emailOTP.disableSignUp`.",
  tags: ["passwordless"],
});

export const verifyEmailOTPContract = defineContract({
  name: "verifyEmailOTP",
  method: "POST",
  path: "/email-otp/verify-email",
  auth: "none",
  setsSessionCookies: true,
  body: z.strictObject({ email: emailField, otp: otpField }),
  response: z.union([emailVerifiedByOTPSchema, twoFactorRedirectSchema]),
  errors: [...CODE_ERRORS, ...THROTTLE_ERRORS, "BANNED_USER", "FAILED_TO_CREATE_SESSION"],
  summary: "Marks the address verified with a mailed code.",
  tags: ["passwordless"],
});

export const checkVerificationOTPContract = defineContract({
  name: "checkVerificationOTP",
  method: "POST",
  path: "/email-otp/check-verification-otp",
  auth: "none",
  body: z.strictObject({ email: emailField, type: otpTypeField, otp: otpField }),
  response: successTrueSchema,
  errors: [...CODE_ERRORS, ...THROTTLE_ERRORS],
  summary: "Tells whether a mailed code is right without using it up (the try counts).",
  tags: ["passwordless"],
});

const resetRequestContract = {
  method: "POST",
  auth: "none",
  body: z.strictObject({ email: emailField }),
  response: successTrueSchema,
  errors: ["NOT_FOUND", "INVALID_EMAIL", "RESET_PASSWORD_DISABLED"],
  summary: "Mails a 6-digit password reset code; the answer never tells whether the address has an account.",
  tags: ["passwordless"],
} as const;

export const requestPasswordResetEmailOTPContract = defineContract({
  ...resetRequestContract,
  name: "requestPasswordResetEmailOTP",
  path: "/email-otp/request-password-reset",
});

/**
 * Better Auth's older path of the same call. Its client method cannot be `forgetPassword.emailOtp`
 * here: `forgetPassword` is a method already (/forget-password).
 */
export const forgetPasswordEmailOTPContract = defineContract({
  ...resetRequestContract,
  name: "forgetPasswordEmailOTP",
  path: "/forget-password/email-otp",
  client: "emailOtp.forgetPassword",
});

export const resetPasswordEmailOTPContract = defineContract({
  name: "resetPasswordEmailOTP",
  method: "POST",
  path: "/email-otp/reset-password",
  auth: "none",
  body: z.strictObject({ email: emailField, otp: otpField, password: passwordField }),
  response: successTrueSchema,
  errors: [
    ...CODE_ERRORS,
    ...THROTTLE_ERRORS,
    "RESET_PASSWORD_DISABLED",
    "PASSWORD_TOO_SHORT",
    "PASSWORD_TOO_LONG",
    "PASSWORD_COMPROMISED",
    "PASSWORD_CONTEXT_SPECIFIC",
    "FAILED_TO_UPDATE_USER",
    "UNABLE_TO_CREATE_ACCOUNT",
  ],
  summary: "Sets a new password with a mailed code; every session of the account ends, as with a reset link.",
  tags: ["passwordless"],
});
