import { z } from "zod";
import { defineContract } from "./contract.ts";
import { type User, userSchema } from "./models.ts";
import {
  callbackURLField,
  emailField,
  languageField,
  nameField,
  passwordField,
  userURLField,
} from "./schemas.ts";
import { twoFactorRedirectSchema } from "./two-factor.ts";

/** A password sign-in that minted a session (a two-factor user gets a TwoFactorRedirect instead). */
export interface SignInResult {
  /** True when a callbackURL was given: the client is to go to `url`. */
  redirect: boolean;
  token: string;
  url: string | null;
  user: User;
}

const signInResultSchema: z.ZodType<SignInResult> = z.strictObject({
  redirect: z.boolean(),
  token: z.string(),
  url: z.string().nullable(),
  user: userSchema,
});

export interface SignUpResult {
  /** The new session's token; null when no session was minted (autoSignIn off, or verification required). */
  token: string | null;
  user: User;
}

const signUpResultSchema: z.ZodType<SignUpResult> = z.strictObject({
  token: z.string().nullable(),
  user: userSchema,
});

export const signUpEmailContract = defineContract({
  name: "signUpEmail",
  method: "POST",
  path: "/sign-up/email",
  auth: "none",
  setsSessionCookies: true,
  body: z.strictObject({
    name: nameField,
    email: emailField,
    password: passwordField,
    image: userURLField.optional(),
    callbackURL: callbackURLField.optional(),
    rememberMe: z.boolean().optional(),
    /** Stored on the user; the verification mail of this sign-up is already in it. */
    language: languageField.optional(),
  }),
  response: signUpResultSchema,
  errors: [
    "EMAIL_PASSWORD_DISABLED",
    "INVALID_EMAIL",
    "PASSWORD_TOO_SHORT",
    "PASSWORD_TOO_LONG",
    "USER_ALREADY_EXISTS",
    "UNABLE_TO_CREATE_ACCOUNT",
    "FAILED_TO_CREATE_SESSION",
    "PASSWORD_COMPROMISED",
    "PASSWORD_CONTEXT_SPECIFIC",
    "SSO_REQUIRED",
  ],
  summary: "Creates a user with an email and password, and signs them in unless verification is required.",
  tags: ["email-password"],
});

export const signInEmailContract = defineContract({
  name: "signInEmail",
  method: "POST",
  path: "/sign-in/email",
  auth: "none",
  setsSessionCookies: true,
  body: z.strictObject({
    email: emailField,
    password: passwordField,
    callbackURL: callbackURLField.optional(),
    rememberMe: z.boolean().optional(),
  }),
  response: z.union([signInResultSchema, twoFactorRedirectSchema]),
  errors: [
    "EMAIL_PASSWORD_DISABLED",
    "INVALID_EMAIL",
    "INVALID_EMAIL_OR_PASSWORD",
    "PASSWORD_RESET_REQUIRED",
    "BANNED_USER",
    "EMAIL_NOT_VERIFIED",
    "FAILED_TO_CREATE_SESSION",
    "ACCOUNT_TEMPORARILY_LOCKED",
    "SIGN_IN_LOCKED",
    "SSO_REQUIRED",
  ],
  summary: "Signs in with an email and password, or answers a two-factor challenge.",
  notes: "Answers `{ twoFactorRedirect: true, twoFactorMethods }` when a second factor is due.",
  tags: ["email-password"],
});
