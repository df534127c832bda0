import { z } from "zod";

/**
 * Sign-in without a password (features/passwordless, docs/passwordless.md): mailed links
 * (`magicLink`) and mailed 6-digit codes (`emailOTP`), with Better Auth's option names. Both are off
 * until the app turns them on: each adds a way into every account that has a mailbox.
 */

const positiveSeconds = z.number().int().positive();
const hook = <T>() =>
  z.custom<(data: T) => unknown>((value) => typeof value === "function", "expected a function").optional();

/** What `magicLink.sendMagicLink` receives: the link and, when codes are on, the code of the same mail. */
export interface MagicLinkMail {
  email: string;
  url: string;
  token: string;
  /** The 6-digit code the same sign-in accepts (`emailOTP` on), else null. */
  code: string | null;
}

/** What `emailOTP.sendVerificationOTP` receives; `url`: the sign-in link of the same mail, when links are on. */
export interface EmailOTPMail {
  email: string;
  otp: string;
  type: "sign-in" | "email-verification" | "forget-password";
  url: string | null;
}

export const magicLinkOptionsSchema = z
  .object({
    /** POST /sign-in/magic-link and /magic-link/verify exist (404 otherwise). @default false */
    enabled: z.boolean().default(false),
    /** Lifetime of a mailed link, in seconds. @default 300 (5 minutes) */
    expiresIn: positiveSeconds.max(3600).default(300),
    /** A link for an address nobody has signs nobody up (and none is mailed). @default false */
    disableSignUp: z.boolean().default(false),
    /**
     * The app's confirmation page: GET /magic-link/verify (the mailed link) redirects there with
     * `token`, `callbackURL`, `newUserCallbackURL` and `errorCallbackURL` in the query, and the page
     * POSTs them to /magic-link/verify. A path on the base URL's origin or an absolute http(s) URL.
     * @default undefined (the core answers a minimal page in the user's language)
     */
    confirmURL: z
      .string()
      .max(2048)
      .regex(/^(\/(?![/\\])|https?:\/\/)[^\s]*$/, "a path starting with a single / or an http(s) URL")
      .optional(),
    /** Replaces the built-in sign-in mail: the app sends the link (and code) its own way. */
    sendMagicLink: hook<MagicLinkMail>(),
  })
  .strict()
  .prefault({});

export const emailOTPOptionsSchema = z
  .object({
    /** The /email-otp/* endpoints and POST /sign-in/email-otp exist (404 otherwise). @default false */
    enabled: z.boolean().default(false),
    /** Lifetime of a mailed code, in seconds. @default 300 (5 minutes) */
    expiresIn: positiveSeconds.max(600).default(300),
    /** Tries per code, right or wrong; then the code (and the link of its mail) dies. @default 3 */
    allowedAttempts: z.number().int().min(1).max(10).default(3),
    /** A code for an address nobody has signs nobody up (and none is mailed). @default false */
    disableSignUp: z.boolean().default(false),
    /** Replaces the built-in code mails: the app sends the code its own way. */
    sendVerificationOTP: hook<EmailOTPMail>(),
  })
  .strict()
  .prefault({});
