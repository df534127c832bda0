import { z } from "zod";
import { Db } from "../db/connect.ts";
import { parseTrustedProxy } from "../http/client-ip.ts";
import { MAIL_KINDS, type Mailer } from "../mail/mailer.ts";
import { eventOptionsSchema } from "./event-options.ts";
import {
  adminOptionsSchema,
  apiKeyOptionsSchema,
  organizationOptionsSchema,
  positiveSeconds,
  twoFactorOptionsSchema,
} from "./feature-options.ts";
import { hooksSchema, mailHooksSchema } from "./hooks.ts";
import { mailQueueOptionsSchema } from "./mail-queue-options.ts";
import { outboundOptionsSchema } from "./outbound-options.ts";
import { passkeyOptionsSchema } from "./passkey-options.ts";
import { emailOTPOptionsSchema, magicLinkOptionsSchema } from "./passwordless-options.ts";
import { scimOptionsSchema } from "./scim-options.ts";
import {
  type BuiltInProviderId,
  genericProviderOptionsSchema,
  PROVIDER_IDS,
  providerOptionsSchema,
} from "./social-provider-options.ts";
import { ssoOptionsSchema } from "./sso-options.ts";
import { baseURLSchema, describeIssue, headerNameSchema, originPatternSchema } from "./value-schemas.ts";
import { webhookOptionsSchema } from "./webhook-options.ts";

export type { CreateOrganizationGate, SendInvitationEmail } from "./feature-options.ts";

/**
 * `createAuth` options. Every default comes from docs/decisions/; each is documented with
 * `@default` in `AuthOptions` below. Validation runs once at construction: a wrong option fails
 * at startup with a message naming it.
 */
const fn = z.custom<(...args: never[]) => unknown>(
  (value) => typeof value === "function",
  "expected a function",
);

const rateLimitRuleSchema = z.union([
  z.literal(false),
  z.object({ window: positiveSeconds, max: z.number().int().positive() }).strict(),
]);

const mailLimitMax = z.number().int().positive().max(100);
const mailLimitRuleSchema = z.union([
  z.literal(false),
  z
    .object({
      window: positiveSeconds.optional(),
      max: mailLimitMax.optional(),
      recipientMax: mailLimitMax.optional(),
    })
    .strict(),
]);

/** `socialProviders`: one optional entry per built-in provider id; unknown ids are refused. */
const socialProvidersSchema = z
  .strictObject(
    Object.fromEntries(PROVIDER_IDS.map((id) => [id, providerOptionsSchema.optional()])) as Record<
      BuiltInProviderId,
      z.ZodOptional<typeof providerOptionsSchema>
    >,
  )
  .prefault({});

/** `account`: linking of provider accounts. */
const accountSchema = z
  .object({
    accountLinking: z
      .object({
        /** Link a provider account to an existing user with the same email. @default true */
        enabled: z.boolean().default(true),
        /** Providers whose emails are trusted as verified for linking, whatever they report. @default [] */
        trustedProviders: z.array(z.string().min(1)).default([]),
        /** Let /link-social link a provider account whose email differs from the user's. @default false */
        allowDifferentEmails: z.boolean().default(false),
        /** Let /unlink-account remove a user's last account. @default false */
        allowUnlinkingAll: z.boolean().default(false),
      })
      .strict()
      .prefault({}),
  })
  .strict()
  .prefault({});

export const optionsSchema = z
  .object({
    database: z.union([
      z.instanceof(Db),
      z
        .object({
          uri: z.string().min(1),
          dbName: z.string().min(1).optional(),
          serverSelectionTimeoutMS: z.number().int().positive().default(2000),
        })
        .strict(),
    ]),
    secret: z.string().min(16, "secret must be at least 16 characters"),
    baseURL: baseURLSchema.optional(),
    basePath: z
      .string()
      .regex(/^\/[\w\-/]*[^/]$/, "basePath must start with / and not end with /")
      .default("/api/auth"),
    appName: z.string().min(1).default("Tessera"),
    trustedOrigins: z.array(originPatternSchema).default([]),
    language: z.enum(["ENG", "RUS", "UKR", "SPA", "GERMAN", "POL", "FRA", "TURKEY"]).default("ENG"),
    emailAndPassword: z
      .object({
        enabled: z.boolean().default(true),
        requireEmailVerification: z.boolean().default(false),
        autoSignIn: z.boolean().default(true),
        minPasswordLength: z.number().int().min(1).default(8),
        maxPasswordLength: z.number().int().min(1).max(4096).default(128),
        resetPasswordEnabled: z.boolean().default(true),
        resetPasswordTokenExpiresIn: positiveSeconds.default(3600),
        /**
         * A reset proves the mailbox, so every session of the account ends — those of whoever held it
         * before included (docs/security.md, ASVS 7.4.3: a pre-registered account is taken back
         * whole). Better Auth defaults to false; we do not.
         * @default true
         */
        revokeSessionsOnPasswordReset: z.boolean().default(true),
        /**
         * An extra check of every new password (sign-up, reset, change, set, admin create and set)
         * after the built-in offline list: return true to refuse it with PASSWORD_COMPROMISED. For an
         * online breach check such as Have I Been Pwned's k-anonymity range API (docs/guide.md "Passwords").
         * Receives the password as it will be hashed (NFKC). A hook that throws is logged and the
         * password accepted (features/users/password-policy.ts).
         * @default undefined
         */
        isPasswordBreached: z
          .custom<(password: string) => boolean | Promise<boolean>>(
            (value) => typeof value === "function",
            "expected a function",
          )
          .optional(),
      })
      .strict()
      .prefault({}),
    emailVerification: z
      .object({
        enabled: z.boolean().default(true),
        sendOnSignUp: z.boolean().optional(),
        sendOnSignIn: z.boolean().default(true),
        autoSignInAfterVerification: z.boolean().default(false),
        expiresIn: positiveSeconds.default(3600),
      })
      .strict()
      .prefault({}),
    session: z
      .object({
        expiresIn: positiveSeconds.max(400 * 86400).default(7 * 86400),
        updateAge: z.number().int().min(0).default(86400),
        freshAge: z.number().int().min(0).default(86400),
        dontRememberExpiresIn: positiveSeconds.default(86400),
        disableSessionRefresh: z.boolean().default(false),
        cookieCache: z
          .object({ enabled: z.boolean().default(false), maxAge: positiveSeconds.default(60) })
          .strict()
          .prefault({}),
      })
      .strict()
      .prefault({}),
    user: z
      .object({
        changeEmail: z
          .object({
            enabled: z.boolean().default(false),
            /**
             * Move the address only once the NEW address has confirmed (a verified user's current
             * address confirms first), and keep it verified. Off (Better Auth's flow): the current
             * address's link moves the address and resets it to unverified, and an unverified user's
             * address moves at once — so an unverified account could hold a free address it does not
             * own until that address's owner resets it (docs/decisions/0008-an-address-moves-only-once-it-is-proven.md "An address moves only once
             * it is proven"). On also closes the typo-takeover window of Better Auth #7196.
             * @default true
             */
            verifyNewEmailFirst: z.boolean().default(true),
          })
          .strict()
          .prefault({}),
        deleteUser: z
          .object({
            enabled: z.boolean().default(false),
            sendDeleteAccountVerification: z.boolean().default(false),
            deleteTokenExpiresIn: positiveSeconds.default(86400),
          })
          .strict()
          .prefault({}),
      })
      .strict()
      .prefault({}),
    rateLimit: z
      .object({
        enabled: z.boolean().default(true),
        window: positiveSeconds.default(10),
        max: z.number().int().positive().default(100),
        storage: z.enum(["database", "memory"]).default("database"),
        /** Rules by endpoint path (`/sign-in/email`): the limiter looks rules up by that path. @default {} */
        customRules: z
          .record(
            z
              .string()
              .regex(/^\//, "a rule is keyed by an endpoint path starting with / (e.g. /sign-in/email)"),
            rateLimitRuleSchema,
          )
          .default({}),
      })
      .strict()
      .prefault({}),
    /**
     * Per `window` seconds and mail kind (verification, reset, invitation, …): at most `max` mails from
     * one sender (a client address, an account, an inviting organization) to one mailbox, and at most
     * `recipientMax` to one mailbox from all senders together, counted in the database so it holds
     * across instances. A `+tag` does not make another mailbox. Past it the endpoint answers as usual
     * and no mail leaves; create-invitation says `emailSent: false` (docs/security.md, "Mail flooding").
     */
    mailLimit: z
      .object({
        /** @default true */
        enabled: z.boolean().default(true),
        /** Seconds. @default 900 */
        window: positiveSeconds.default(900),
        /** Per sender and mailbox; per mailbox for mails only its own account can cause. @default 3 */
        max: mailLimitMax.default(3),
        /** Per mailbox, from all senders together. @default 10 */
        recipientMax: mailLimitMax.default(10),
        /**
         * A rule per mail kind (any of `window`/`max`/`recipientMax`), or `false` for none.
         * @default { "two-factor-otp": { window: 900, max: 10, recipientMax: 10 } }
         */
        kinds: z.partialRecord(z.enum(MAIL_KINDS), mailLimitRuleSchema).default({}),
      })
      .strict()
      .prefault({}),
    advanced: z
      .object({
        /**
         * Checks every answer against its endpoint's contract (contracts/) and fails the request with
         * a logged 500 when they disagree. For tests and development: it costs a schema parse per call.
         * @default false
         */
        checkResponses: z.boolean().default(false),
        cookiePrefix: z
          .string()
          .regex(/^[\w-]+$/)
          .default("tessera"),
        useSecureCookies: z.boolean().optional(),
        /**
         * Proxies whose forwarded header is believed: addresses, CIDR ranges, or "*" (one proxy hop of any
         * address — a platform edge, or auth.handler mounted without a socket address). Without them the
         * socket address is used.
         * @default []
         */
        trustedProxies: z
          .array(
            z
              .string()
              .refine(
                (entry) => parseTrustedProxy(entry) !== null,
                'must be an IP address, a CIDR range (10.0.0.0/8, 2001:db8::/32) or "*"',
              ),
          )
          .default([]),
        ipAddressHeader: headerNameSchema.default("x-forwarded-for"),
        maxBodyBytes: z
          .number()
          .int()
          .positive()
          .default(1024 * 1024),
        /**
         * Bound on every call to a social provider (token, user info, JWKS, discovery): a hanging
         * provider fails the sign-in with an error redirect instead of holding the request.
         * @default 10000
         */
        providerTimeoutMs: z.number().int().positive().max(120_000).default(10_000),
        /**
         * Backstop on a whole request: past it the answer is 503 `SERVICE_UNAVAILABLE`, so nothing hangs
         * for good — a database that accepts and never answers behind an app-provided client on the
         * driver's defaults (docs/security.md). Work already under way may still complete, so it must
         * stay above every bound a request legitimately waits out (providerTimeoutMs, a slow mailer);
         * the fast failure comes from the client's own timeouts (`database.uri`: 2 s to select a
         * server, 10 s per answer). 0 turns it off.
         * @default 30000, or providerTimeoutMs + 5000 when that is more
         */
        requestTimeoutMs: z.number().int().min(0).max(600_000).optional(),
      })
      .strict()
      .refine(
        ({ requestTimeoutMs, providerTimeoutMs }) =>
          requestTimeoutMs === undefined || requestTimeoutMs === 0 || requestTimeoutMs > providerTimeoutMs,
        {
          path: ["requestTimeoutMs"],
          message:
            "must be above advanced.providerTimeoutMs (a provider call must fail first, with its redirect), or 0",
        },
      )
      .transform((advanced) => ({
        ...advanced,
        requestTimeoutMs: advanced.requestTimeoutMs ?? Math.max(30_000, advanced.providerTimeoutMs + 5_000),
      }))
      .prefault({}),
    /** Built-in social providers by id. @default {} */
    socialProviders: socialProvidersSchema,
    /** Generic OAuth2/OIDC providers (discovery URL or explicit endpoints). @default [] */
    genericOAuth: z.array(genericProviderOptionsSchema).default([]),
    /** Linking of provider accounts to users (`account.accountLinking`). */
    account: accountSchema,
    admin: adminOptionsSchema,
    twoFactor: twoFactorOptionsSchema,
    apiKey: apiKeyOptionsSchema,
    /** Sign-in by mailed link (features/passwordless, docs/passwordless.md). */
    magicLink: magicLinkOptionsSchema,
    /** Mailed 6-digit codes: sign-in, email verification, password reset (docs/passwordless.md). */
    emailOTP: emailOTPOptionsSchema,
    passkey: passkeyOptionsSchema,
    organization: organizationOptionsSchema,
    /** Single sign-on per organization: verified domains (config/sso-options.ts). */
    sso: ssoOptionsSchema,
    /** SCIM connections declared as code (config/scim-options.ts). */
    scim: scimOptionsSchema,
    /** Server-side fetches of customer-supplied URLs (config/outbound-options.ts). */
    outbound: outboundOptionsSchema,
    /** Events kept for listings and webhooks (config/event-options.ts). */
    events: eventOptionsSchema,
    /** Signed webhook deliveries of events (config/webhook-options.ts). */
    webhooks: webhookOptionsSchema,
    /** The durable mail outbox and its delivery worker (config/mail-queue-options.ts). */
    mailQueue: mailQueueOptionsSchema,
    mailer: z
      .custom<Mailer>((value) => typeof (value as Mailer)?.send === "function", "expected a Mailer")
      .optional(),
    /** Mail hooks (config/hooks.ts MailHooks); unknown keys and non-functions are refused. */
    mail: mailHooksSchema.optional(),
    /** Lifecycle hooks (config/hooks.ts AuthHooks); unknown keys and non-functions are refused. */
    hooks: hooksSchema.optional(),
    clock: fn.optional(),
    logger: z
      .custom<Logger>(
        (value) =>
          typeof value === "object" && value !== null && typeof (value as Logger).error === "function",
        "expected a logger with info, warn and error",
      )
      .optional(),
  })
  .strict();

export interface Logger {
  info(message: string, detail?: unknown): void;
  warn(message: string, detail?: unknown): void;
  error(message: string, detail?: unknown): void;
}

export type AuthOptions = z.input<typeof optionsSchema> & { clock?: () => Date };
export type ResolvedOptions = z.output<typeof optionsSchema> & { clock: () => Date; logger: Logger };

export function resolveOptions(input: AuthOptions): ResolvedOptions {
  const parsed = optionsSchema.safeParse(input);
  if (!parsed.success) {
    const problems = parsed.error.issues.flatMap(describeIssue);
    throw new TypeError(`Invalid Tessera options — ${problems.join("; ")}`);
  }
  const options = parsed.data;
  if (options.emailAndPassword.minPasswordLength > options.emailAndPassword.maxPasswordLength) {
    throw new TypeError(
      "Invalid Tessera options — emailAndPassword.minPasswordLength exceeds maxPasswordLength",
    );
  }
  const baseURLPath = options.baseURL === undefined ? "/" : new URL(options.baseURL).pathname;
  if (!["/", options.basePath, `${options.basePath}/`].includes(baseURLPath)) {
    // Only the origin is used: the API answers at origin + basePath, whatever path baseURL names.
    throw new TypeError(
      `Invalid Tessera options — baseURL: its path "${baseURLPath}" would be ignored; give the origin alone (the API is served at basePath "${options.basePath}")`,
    );
  }
  return {
    ...options,
    clock: (input.clock as (() => Date) | undefined) ?? (() => new Date()),
    logger: options.logger ?? consoleLogger,
  };
}

const consoleLogger: Logger = {
  info: (message, detail) => console.info(`[tessera] ${message}`, detail ?? ""),
  warn: (message, detail) => console.warn(`[tessera] ${message}`, detail ?? ""),
  error: (message, detail) => console.error(`[tessera] ${message}`, detail ?? ""),
};
