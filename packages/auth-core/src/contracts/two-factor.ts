import { z } from "zod";
import { defineContract } from "./contract.ts";
import { statusTrueSchema, type User, userSchema } from "./models.ts";
import { passwordField } from "./schemas.ts";

/** A second factor a sign-in challenge can be answered with; backup codes are always accepted besides. */
export type TwoFactorMethod = "totp" | "otp";

export const twoFactorMethodSchema: z.ZodType<TwoFactorMethod> = z.enum(["totp", "otp"]);

/**
 * The answer of a sign-in path (email, verify-email's auto sign-in, social) for a user whose second
 * factor is still to come: no session, no token; a challenge cookie is set instead, which the
 * /two-factor/verify-* endpoints accept.
 */
export interface TwoFactorRedirect {
  twoFactorRedirect: true;
  twoFactorMethods: TwoFactorMethod[];
}

export const twoFactorRedirectSchema: z.ZodType<TwoFactorRedirect> = z.strictObject({
  twoFactorRedirect: z.literal(true),
  twoFactorMethods: z.array(twoFactorMethodSchema),
});

/** A sign-in completed with the second factor (or, for verify-totp with a session, the caller's own). */
export interface SignInCompleted {
  token: string;
  user: User;
}

const signInCompletedSchema: z.ZodType<SignInCompleted> = z.strictObject({
  token: z.string(),
  user: userSchema,
});

/** A new, unconfirmed second factor: the URI for the authenticator app and the one-time backup codes. */
export interface Enrollment {
  totpURI: string;
  backupCodes: string[];
}

const enrollmentSchema: z.ZodType<Enrollment> = z.strictObject({
  totpURI: z.string(),
  backupCodes: z.array(z.string()),
});

export interface BackupCodesGenerated {
  status: true;
  backupCodes: string[];
}

const backupCodesGeneratedSchema: z.ZodType<BackupCodesGenerated> = z.strictObject({
  status: z.literal(true),
  backupCodes: z.array(z.string()),
});

/** The caller's password, asked again before any change to the second factor. */
const passwordBody = z.strictObject({ password: passwordField });
/** Six digits; a malformed code answers INVALID_CODE (the endpoints' fieldErrors) without spending an attempt. */
const sixDigitCodeField = z.string().regex(/^\d{6}$/);
/** Backup codes are typed back with or without the dash, any case, spaces (features/two-factor/rules.ts). */
const backupCodeField = z.string().min(1).max(32);

/**
 * What completing a sign-in challenge can answer (features/two-factor/challenge.ts): no live challenge
 * (or a parallel request won it), the per-challenge attempts spent, the user banned, no session minted.
 */
const CHALLENGE_ERRORS = [
  "INVALID_TWO_FACTOR_COOKIE",
  "TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE",
  "BANNED_USER",
  "FAILED_TO_CREATE_SESSION",
] as const;
/** The user's sign-in lock (lockout.ts), met by code attempts; a backup code is checked while locked. */
const LOCKOUT_ERRORS = ["TWO_FACTOR_LOCKED", "ACCOUNT_TEMPORARILY_LOCKED"] as const;

export const enableTwoFactorContract = defineContract({
  name: "enableTwoFactor",
  method: "POST",
  path: "/two-factor/enable",
  auth: "session",
  body: passwordBody,
  response: enrollmentSchema,
  errors: ["CREDENTIAL_ACCOUNT_NOT_FOUND", "INVALID_PASSWORD", "TWO_FACTOR_ALREADY_ENABLED"],
  summary: "Starts enrolling a TOTP second factor; it becomes active once verify-totp confirms a code.",
  notes: "Answers `{ totpURI, backupCodes }`; active after the first verify-totp.",
  tags: ["two-factor"],
});

export const getTotpUriContract = defineContract({
  name: "getTOTPURI",
  method: "POST",
  path: "/two-factor/get-totp-uri",
  auth: "session",
  body: passwordBody,
  response: z.strictObject({ totpURI: z.string() }),
  errors: ["CREDENTIAL_ACCOUNT_NOT_FOUND", "INVALID_PASSWORD", "TOTP_NOT_ENABLED"],
  summary: "The otpauth:// URI of the caller's pending or active TOTP secret.",
  notes: "Answers `{ totpURI }`.",
  tags: ["two-factor"],
});

export const verifyTotpContract = defineContract({
  name: "verifyTOTP",
  method: "POST",
  path: "/two-factor/verify-totp",
  auth: "optional",
  setsSessionCookies: true,
  httpCredentials: ["session", "two-factor-challenge"],
  body: z.strictObject({ code: sixDigitCodeField, trustDevice: z.boolean().optional() }),
  response: signInCompletedSchema,
  errors: [
    ...CHALLENGE_ERRORS,
    ...LOCKOUT_ERRORS,
    "TOTP_NOT_ENABLED",
    "INVALID_CODE",
    "FAILED_TO_UPDATE_USER",
  ],
  summary: "Checks a TOTP code: completes a pending sign-in, or with a session confirms the enrollment.",
  notes: "Completes a sign-in challenge, or confirms enrollment with a session.",
  tags: ["two-factor"],
});

export const sendTwoFactorOtpContract = defineContract({
  name: "sendTwoFactorOTP",
  method: "POST",
  path: "/two-factor/send-otp",
  auth: "none",
  httpCredentials: ["two-factor-challenge"],
  // Accepted for clients of the widely used API; verify-otp decides whether the device is trusted.
  body: z.strictObject({ trustDevice: z.boolean().optional() }),
  response: statusTrueSchema,
  errors: ["INVALID_TWO_FACTOR_COOKIE", "OTP_NOT_ENABLED", "TOO_MANY_REQUESTS", "MAIL_UNAVAILABLE"],
  summary: "Mails a one-time code for the pending sign-in challenge.",
  notes: "Mails a 6-digit code for the pending sign-in.",
  tags: ["two-factor"],
});

export const verifyTwoFactorOtpContract = defineContract({
  name: "verifyTwoFactorOTP",
  method: "POST",
  path: "/two-factor/verify-otp",
  auth: "none",
  setsSessionCookies: true,
  httpCredentials: ["two-factor-challenge"],
  body: z.strictObject({ code: sixDigitCodeField, trustDevice: z.boolean().optional() }),
  response: signInCompletedSchema,
  errors: [...CHALLENGE_ERRORS, ...LOCKOUT_ERRORS, "OTP_NOT_ENABLED", "OTP_HAS_EXPIRED", "INVALID_CODE"],
  summary: "Completes a pending sign-in with the code send-otp mailed.",
  notes: "Answers `{ token, user }`.",
  tags: ["two-factor"],
});

export const generateBackupCodesContract = defineContract({
  name: "generateBackupCodes",
  method: "POST",
  path: "/two-factor/generate-backup-codes",
  auth: "session",
  body: passwordBody,
  response: backupCodesGeneratedSchema,
  errors: ["CREDENTIAL_ACCOUNT_NOT_FOUND", "INVALID_PASSWORD", "TWO_FACTOR_NOT_ENABLED"],
  summary: "Replaces the caller's backup codes with a new set.",
  notes: "Answers a new set; the old one stops working.",
  tags: ["two-factor"],
});

export const verifyBackupCodeContract = defineContract({
  name: "verifyBackupCode",
  method: "POST",
  path: "/two-factor/verify-backup-code",
  auth: "none",
  setsSessionCookies: true,
  httpCredentials: ["two-factor-challenge"],
  body: z.strictObject({ code: backupCodeField, trustDevice: z.boolean().optional() }),
  response: signInCompletedSchema,
  errors: [...CHALLENGE_ERRORS, "INVALID_BACKUP_CODE"],
  summary: "Completes a pending sign-in with one of the user's backup codes (each works once).",
  notes: "Answers `{ token, user }`; each code once.",
  tags: ["two-factor"],
});

export const disableTwoFactorContract = defineContract({
  name: "disableTwoFactor",
  method: "POST",
  path: "/two-factor/disable",
  auth: "session",
  body: passwordBody,
  response: statusTrueSchema,
  errors: [
    "CREDENTIAL_ACCOUNT_NOT_FOUND",
    "INVALID_PASSWORD",
    "TWO_FACTOR_NOT_ENABLED",
    "FAILED_TO_UPDATE_USER",
  ],
  summary: "Removes the caller's second factor, its backup codes and trusted devices.",
  notes: "Also forgets trusted devices.",
  tags: ["two-factor"],
});
