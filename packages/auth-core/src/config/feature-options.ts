import { z } from "zod";
import { ADMIN_STATEMENTS, DEFAULT_ADMIN_ROLES, findInvalidGrant } from "./admin-roles.ts";
import type { MailUser } from "./hooks.ts";

/**
 * The option blocks of the feature areas (organizations, admin, two-factor, API keys), kept apart
 * from the core options in options.ts. Defaults from docs/decisions/, each documented with `@default`.
 */

export const positiveSeconds = z.number().int().positive();

/** A member's role list is comma separated, so a role name holds no comma or space. */
const roleName = z.string().regex(/^[^,\s]+$/, "a role name cannot be empty or contain commas or spaces");

/** admin.roles may grant only admin statements; defaultRole and adminRoles must be roles (at startup). */
function refineAdminRoles(
  admin: { roles?: Record<string, Record<string, string[]>>; defaultRole: string; adminRoles: string[] },
  ctx: z.RefinementCtx,
): void {
  const roles = admin.roles ?? DEFAULT_ADMIN_ROLES;
  const problem = findInvalidGrant(roles, ADMIN_STATEMENTS);
  if (problem) ctx.addIssue({ code: "custom", path: ["roles"], message: problem });
  for (const name of [admin.defaultRole, ...admin.adminRoles]) {
    if (!Object.hasOwn(roles, name))
      ctx.addIssue({ code: "custom", path: ["roles"], message: `role "${name}" is not defined` });
  }
}

/**
 * A listing cache's bounds (db/listing-cache.ts): `maxBytes` in all, each listing served for at most
 * `maxAgeSeconds`; `false` turns it off.
 */
function listingCacheOption() {
  return z
    .union([
      z.literal(false),
      z
        .object({
          maxBytes: z
            .number()
            .int()
            .positive()
            .max(2 ** 30)
            .default(8 * 2 ** 20),
          maxAgeSeconds: z.number().positive().max(60).default(5),
        })
        .strict(),
    ])
    .prefault({});
}

export const adminOptionsSchema = z
  .object({
    /** Role given to users without one (new users). @default "user" */
    defaultRole: z.string().min(1).default("user"),
    /** Roles that count as "admin" (impersonation protection). @default ["admin"] */
    adminRoles: z.array(z.string().min(1)).min(1).default(["admin"]),
    /** Users allowed every admin action whatever their role. @default [] */
    adminUserIds: z.array(z.string().regex(/^[0-9a-f]{24}$/i)).default([]),
    /**
     * Custom roles by statements, e.g. `{ support: { user: ["list", "get"] } }`; replaces the
     * default admin/user roles (config/admin-roles.ts). @default admin (all but impersonate-admins), user (none)
     */
    roles: z.record(z.string().min(1), z.record(z.string(), z.array(z.string()))).optional(),
    /** @default 3600 (1 hour, docs/decisions/) */
    impersonationSessionDuration: positiveSeconds.default(3600),
    /** Let admins impersonate other admins without the impersonate-admins permission. @default false */
    allowImpersonatingAdmins: z.boolean().default(false),
    /** @default "No reason" */
    defaultBanReason: z.string().min(1).max(1000).default("No reason"),
    /** Ban length when ban-user gives none, in seconds. @default undefined (permanent) */
    defaultBanExpiresIn: positiveSeconds.optional(),
    /** @default the BANNED_USER catalogue message */
    bannedUserMessage: z.string().min(1).optional(),
    /**
     * A password an admin sets for someone else (set-user-password, create-user) signs nobody in:
     * sign-in with it answers 403 PASSWORD_RESET_REQUIRED until the user resets or changes it
     * (docs/security.md, ASVS 6.4.6), and a social sign-in linked by email removes it. An admin
     * setting their own password is not held to it. @default true
     */
    setUserPasswordRequiresReset: z.boolean().default(true),
    /**
     * Admin list-users keeps the pages it answered in memory and serves one again while the users'
     * listing version is unchanged (docs/scale.md, "Admin list-users' page cache"): every write to
     * a user bumps it. One page per query, `maxBytes` of them at most, each for at most
     * `maxAgeSeconds` — also how long a write made without a bump (a crash between the two, an
     * older Tessera in a rolling upgrade) can stay unseen. The admin's session and role are read
     * from the database on every request. `false` reads the users every time.
     * @default { maxBytes: 8388608, maxAgeSeconds: 5 }
     */
    listingCache: listingCacheOption(),
  })
  .strict()
  .superRefine(refineAdminRoles)
  .prefault({});

/** Two-factor authentication (features/two-factor); defaults from docs/decisions/0014-two-factor.md "Two-factor". */
export const twoFactorOptionsSchema = z
  .object({
    /** TOTP issuer shown by authenticator apps. @default appName */
    issuer: z.string().min(1).max(100).optional(),
    /** Steps of clock drift accepted either side of now (RFC 6238 §5.2). @default 1 */
    totpWindow: z.number().int().min(0).max(2).default(1),
    /**
     * The app's page for the second factor, where a provider sign-in (a browser redirect, not
     * JSON) of a two-factor user lands, with `twoFactorMethods` and `callbackURL` in the query.
     * A same-site path. @default "/two-factor"
     */
    twoFactorPage: z
      .string()
      .regex(/^\/(?![/\\])[^\s]*$/, "a path starting with a single /")
      .max(512)
      .default("/two-factor"),
    /** Offer the emailed one-time code as a second factor. @default true */
    otpEnabled: z.boolean().default(true),
    /** Lifetime of an emailed code, in seconds. @default 180 (3 minutes) */
    otpExpiresIn: positiveSeconds.max(600).default(180),
    /** Codes mailed per sign-in challenge (each replaces the last). @default 5 */
    otpSendsPerChallenge: z.number().int().positive().default(5),
    /** Lifetime of the sign-in challenge (its cookie), in seconds. @default 600 (10 minutes) */
    challengeExpiresIn: positiveSeconds.max(3600).default(600),
    /**
     * Code attempts per sign-in challenge, whatever the method; then the challenge is spent. Also
     * the consecutive failures allowed per session when a signed-in user checks a code. @default 5
     */
    attemptsPerChallenge: z.number().int().positive().max(20).default(5),
    /**
     * Consecutive failed sign-in code attempts of a user between two locks (features/two-factor/
     * lockout.ts; only a success clears them; after 100 the codes stay locked until a backup code
     * or the owner's disable). @default 10
     */
    failuresPerUser: z.number().int().positive().max(100).default(10),
    /** The first lock, in seconds; each next one lasts twice as long. @default 900 (15 minutes) */
    lockoutWindow: positiveSeconds.default(900),
    /** Lifetime of the trusted-device cookie, in seconds. @default 2592000 (30 days) */
    trustDeviceExpiresIn: positiveSeconds.max(400 * 86400).default(30 * 86400),
    /** Backup codes per set. @default 10 */
    backupCodeCount: z.number().int().min(1).max(50).default(10),
    /**
     * Replaces the built-in "two-factor-otp" mail: the app sends the code its own way (SMS…).
     * @default undefined (the mailer sends the template)
     */
    sendOTP: z
      .custom<(data: { user: { id: string; email: string; name: string }; code: string }) => unknown>(
        (value) => typeof value === "function",
        "expected a function",
      )
      .optional(),
  })
  .strict()
  .prefault({});

export const apiKeyOptionsSchema = z
  .object({
    /** Request header that carries an API key (never a query parameter). @default "x-api-key" */
    header: z
      .string()
      .regex(/^[a-z0-9-]+$/, "a lower-case header name")
      .default("x-api-key"),
    /**
     * Authenticate a request carrying the header as the key's user, without a cookie or a session
     * row. Such a caller is never fresh and is refused by sensitive endpoints (features/api-key).
     * @default false
     */
    enableSessionForAPIKeys: z.boolean().default(false),
    /** Prefix of keys created without one, e.g. "tess_". @default undefined (none) */
    defaultPrefix: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,32}$/)
      .optional(),
    /** Random characters after the prefix. @default 64 (docs/decisions/) */
    defaultKeyLength: z.number().int().min(32).max(128).default(64),
    /** Leading characters of the key kept in clear as `start`, for display. @default 6 */
    startingCharactersLength: z.number().int().min(0).max(12).default(6),
    keyExpiration: z
      .object({
        /**
         * Seconds, for keys created without `expiresIn`; null: such keys never expire. An explicit
         * `expiresIn: null` still asks for a key that never expires. 90 days: a forgotten key stops
         * working within a quarter, the usual rotation period, while a key in use is renewed rarely.
         * @default 7776000 (90 days)
         */
        defaultExpiresIn: positiveSeconds.nullable().default(90 * 86400),
        /** Seconds. @default 86400 (1 day, docs/decisions/) */
        minExpiresIn: positiveSeconds.default(86400),
        /** Seconds. @default 31536000 (365 days, docs/decisions/) */
        maxExpiresIn: positiveSeconds.default(365 * 86400),
      })
      .strict()
      .prefault({}),
    /** Per-key rate limit for keys created without their own (Better Auth's defaults). */
    rateLimit: z
      .object({
        /** @default true */
        enabled: z.boolean().default(true),
        /** Milliseconds. @default 86400000 (1 day) */
        timeWindow: z.number().int().min(1000).default(86_400_000),
        /** @default 10 */
        maxRequests: z.number().int().positive().default(10),
      })
      .strict()
      .prefault({}),
  })
  .strict()
  .prefault({});

export const organizationOptionsSchema = z
  .object({
    /** Whether a user may create organizations: a flag or a function of the user. @default true */
    allowUserToCreateOrganization: z
      .union([z.boolean(), z.custom<CreateOrganizationGate>((value) => typeof value === "function")])
      .default(true),
    /** Organizations one user may belong to before create refuses. @default undefined (unlimited) */
    organizationLimit: z.number().int().positive().optional(),
    /** The role the creator gets; also the "owner" of the sole-owner rules. @default "owner" */
    creatorRole: roleName.default("owner"),
    /** Members per organization (a membership cap, not a page size). @default 100 */
    membershipLimit: z.number().int().positive().default(100),
    /**
     * get-full-organization keeps the listings it answered (members with their users, invitations)
     * in memory and serves one again while the organization's listing version is unchanged
     * (docs/scale.md, "get-full-organization's listing cache"): one per organization, `maxBytes`
     * of them at most, each for at most `maxAgeSeconds` — also how long a write made without a
     * version bump (a crash between the two, an older Tessera in a rolling upgrade) can stay
     * unseen. The caller's membership is read from the database on every request. `false` reads
     * the lists every time. @default { maxBytes: 8388608, maxAgeSeconds: 5 }
     */
    listingCache: listingCacheOption(),
    /** Invitation lifetime in seconds. @default 172800 */
    invitationExpiresIn: positiveSeconds.default(172800),
    /** Pending invitations per organization. @default 100 */
    invitationLimit: z.number().int().positive().default(100),
    /** Re-inviting a pending email cancels the old invitation and creates a new one. @default false */
    cancelPendingInvitationsOnReInvite: z.boolean().default(false),
    /**
     * Accepting, rejecting or reading an invitation needs a verified email: otherwise anyone who
     * signs up with the invited address takes the seat (docs/security.md, CVE-2026-53514).
     * @default true
     */
    requireEmailVerificationOnInvitation: z.boolean().default(true),
    /** `/organization/delete` answers 404. @default false */
    disableOrganizationDeletion: z.boolean().default(false),
    /**
     * The link in invitation mails; `{id}` is replaced by the invitation id.
     * @default `${baseURL origin}/accept-invitation/{id}`
     */
    invitationURL: z.string().min(1).optional(),
    teams: z
      .object({
        /** Team endpoints exist (404 otherwise). @default false */
        enabled: z.boolean().default(false),
        /** Teams per organization. @default undefined (unlimited) */
        maximumTeams: z.number().int().positive().optional(),
        /** Members per team. @default undefined (unlimited) */
        maximumMembersPerTeam: z.number().int().positive().optional(),
        /** The last team of an organization may be removed. @default false */
        allowRemovingAllTeams: z.boolean().default(false),
        /**
         * Custom roles of `organization.roles` that may also be given in a team (besides the built-in
         * `team-admin` and `team-member`): in that team their statements apply, checked with
         * has-permission's `teamId` (docs/decisions.md "Team roles"). @default []
         */
        roles: z.array(roleName).default([]),
      })
      .strict()
      .prefault({}),
    /**
     * Custom roles: role → resource → actions. Merged over the default owner, admin and
     * member; a custom role of the same name replaces the default one. @default {}
     */
    roles: z.record(roleName, z.record(z.string().min(1), z.array(z.string().min(1)))).default({}),
    /** Sends invitation mails the app's own way (replaces the built-in template and mailer). */
    sendInvitationEmail: z
      .custom<SendInvitationEmail>((value) => typeof value === "function", "expected a function")
      .optional(),
  })
  .strict()
  .superRefine((organization, ctx) => {
    for (const [index, name] of organization.teams.roles.entries())
      if (!Object.hasOwn(organization.roles, name))
        ctx.addIssue({
          code: "custom",
          path: ["teams", "roles", index],
          message: `"${name}" is not a role of organization.roles`,
        });
  })
  .prefault({});

/** `organization.allowUserToCreateOrganization` as a function: may this user create one? */
export type CreateOrganizationGate = (user: MailUser) => boolean | Promise<boolean>;

/** `organization.sendInvitationEmail`: replaces the built-in invitation mail. */
export type SendInvitationEmail = (data: {
  id: string;
  email: string;
  role: string;
  url: string;
  organization: { id: string; name: string; slug: string };
  inviter: MailUser;
}) => Promise<void> | void;
