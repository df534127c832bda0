import { z } from "zod";
import { defineContract } from "./contract.ts";
import { statusTrueSchema, type User, userSchema } from "./models.ts";
import { callbackURLField, emailField, passwordField } from "./schemas.ts";

/** The one answer to a reset request, whether or not the address belongs to anyone. */
export interface PasswordResetRequested {
  status: true;
  message: string;
}

const passwordResetRequestedSchema: z.ZodType<PasswordResetRequested> = z.strictObject({
  status: z.literal(true),
  message: z.string(),
});

export interface PasswordChanged {
  /** The new session's token when other sessions were revoked, else null. */
  token: string | null;
  user: User;
}

const passwordChangedSchema: z.ZodType<PasswordChanged> = z.strictObject({
  token: z.string().nullable(),
  user: userSchema,
});

// An empty token is answered "invalid token" like any other wrong one, not as a schema error.
const resetTokenField = z.string().max(256);

/** `redirectTo` is checked against the trusted origins by the engine (403 Invalid redirectURL). */
export const requestPasswordResetContract = defineContract({
  name: "requestPasswordReset",
  method: "POST",
  path: "/request-password-reset",
  auth: "none",
  body: z.strictObject({ email: emailField, redirectTo: callbackURLField.optional() }),
  response: passwordResetRequestedSchema,
  errors: ["RESET_PASSWORD_DISABLED", "INVALID_EMAIL"],
  summary: "Mails a password reset link when the address belongs to a user; the answer never tells.",
  notes: "Same answer for unknown emails.",
  tags: ["password"],
});

/** the older path of the same call; identical behaviour. */
export const forgetPasswordContract = defineContract({
  ...requestPasswordResetContract,
  name: "forgetPassword",
  path: "/forget-password",
  summary: "The older path of request-password-reset; identical behaviour.",
});

/**
 * The link in the reset mail: always a redirect to callbackURL, with `?token=` or `?error=INVALID_TOKEN`
 * (never JSON, hence the `never` response). callbackURL is required: without it there is nowhere to
 * send the user; an untrusted one is refused with 403 by the engine.
 */
export const resetPasswordCallbackContract = defineContract({
  name: "resetPasswordCallback",
  method: "GET",
  path: "/reset-password/:token",
  auth: "none",
  // A mailed link: mail trackers append parameters (utm_*), so unknown keys are stripped, never
  // refused nor passed on (review finding s9-4); the known keys keep their strict types.
  query: z.object({ callbackURL: callbackURLField }),
  response: z.never(),
  answers: "json-or-redirect",
  errors: [],
  summary: "Forwards a mailed reset token to the app's page without consuming it.",
  client: false,
  notes: "Redirects to `callbackURL?token=…` or `?error=INVALID_TOKEN`.",
  tags: ["password"],
});

/** the token may come in the body or the query (body wins). */
export const resetPasswordContract = defineContract({
  name: "resetPassword",
  method: "POST",
  path: "/reset-password",
  auth: "none",
  body: z.strictObject({ newPassword: passwordField, token: resetTokenField.optional() }),
  query: z.strictObject({ token: resetTokenField.optional() }),
  response: statusTrueSchema,
  errors: [
    "RESET_PASSWORD_DISABLED",
    "PASSWORD_TOO_SHORT",
    "PASSWORD_TOO_LONG",
    "INVALID_TOKEN",
    "FAILED_TO_UPDATE_USER",
    "UNABLE_TO_CREATE_ACCOUNT",
    "PASSWORD_COMPROMISED",
    "PASSWORD_CONTEXT_SPECIFIC",
  ],
  summary: "Sets a new password with a reset token (one use).",
  tags: ["password"],
});

export const changePasswordContract = defineContract({
  name: "changePassword",
  method: "POST",
  path: "/change-password",
  auth: "session",
  body: z.strictObject({
    newPassword: passwordField,
    currentPassword: passwordField,
    revokeOtherSessions: z.boolean().optional(),
  }),
  response: passwordChangedSchema,
  errors: [
    "PASSWORD_TOO_SHORT",
    "PASSWORD_TOO_LONG",
    "CREDENTIAL_ACCOUNT_NOT_FOUND",
    "INVALID_PASSWORD",
    "FAILED_TO_UPDATE_USER",
    "FAILED_TO_CREATE_SESSION",
    "PASSWORD_COMPROMISED",
    "PASSWORD_CONTEXT_SPECIFIC",
  ],
  summary: "Changes the caller's password, optionally ending every other session.",
  tags: ["password"],
});

/**
 * server-only (over HTTP it does not exist), for the session the server
 * forwards in the cookie header.
 */
export const setPasswordContract = defineContract({
  name: "setPassword",
  method: "POST",
  path: "/set-password",
  auth: "server-only",
  body: z.strictObject({ newPassword: passwordField }),
  response: statusTrueSchema,
  errors: [
    "UNAUTHORIZED",
    "PASSWORD_TOO_SHORT",
    "PASSWORD_TOO_LONG",
    "PASSWORD_ALREADY_SET",
    "FAILED_TO_UPDATE_USER",
    "UNABLE_TO_CREATE_ACCOUNT",
    "PASSWORD_COMPROMISED",
    "PASSWORD_CONTEXT_SPECIFIC",
  ],
  summary: "Gives a user without a password (signed up through a provider) a credential password.",
  notes: "For a user without a password.",
  tags: ["password"],
});
