import { z } from "zod";
import { LANGUAGES } from "../i18n/languages.ts";
import { accountModel } from "./account-models.ts";
import { auditEventModel } from "./admin-models.ts";
import { apiKeyModel } from "./api-key-models.ts";
import { defineContract } from "./contract.ts";
import { defineModel, type ModelValue, modelShape, pickFields, replaceField } from "./model.ts";
import { sessionModel, userModel } from "./models.ts";
import { passkeyModel } from "./passkey-models.ts";

/**
 * Everything Tessera holds about one user, for the user (GDPR articles 15 and 20) and for an operator
 * answering their request (`tessera export --user`): one shape, built by features/user-export.
 * Secrets stay out — no password hash, session token, provider token, key hash or second-factor
 * secret; their presence is said instead. So do staff details: what an administrator did to the
 * user is told (what happened and when), never who did it, from where, or their internal notes
 * (docs/security.md "The user's own data").
 */
export interface UserExport {
  exportedAt: Date;
  user: ExportedUser;
  accounts: ExportedAccount[];
  /** The user's passkeys, oldest first. */
  passkeys: ExportedPasskey[];
  /** Live sessions (at most 100, newest first); an administrator's impersonation sessions are not the user's. */
  sessions: ExportedSession[];
  memberships: ExportedMembership[];
  teamMemberships: ExportedTeamMembership[];
  invitationsReceived: ExportedInvitationReceived[];
  invitationsSent: ExportedInvitationSent[];
  apiKeys: ExportedApiKey[];
  twoFactor: { enabled: boolean; verified: boolean; createdAt: Date } | null;
  /** The audit trail's events about the user, oldest first. */
  auditEvents: ExportedAuditEvent[];
}

/**
 * The user row (models.ts userModel) in the export's order, without `banReason`: an administrator's
 * internal note, not data the user gave. An allow-list, as the sessions' below: a new user field
 * reaches the export by choice. The language and the second factor are always there (null, false),
 * the role as stored (the default role when none is).
 */
export const exportedUserModel = pickFields(
  replaceField(
    replaceField(
      replaceField(userModel, { key: "language", kind: "string", values: LANGUAGES, nullable: "or absent" }),
      { key: "twoFactorEnabled", kind: "flag" },
    ),
    { key: "role", kind: "string", computed: true },
  ),
  [
    "id",
    "email",
    "emailVerified",
    "name",
    "image",
    "language",
    "role",
    "banned",
    "banExpires",
    "twoFactorEnabled",
    "createdAt",
    "updatedAt",
  ],
);

export type ExportedUser = ModelValue<typeof exportedUserModel>;

/** An account: whether a password hash or provider tokens are held, never them. */
export const exportedAccountModel = defineModel([
  ...pickFields(accountModel, ["id", "providerId", "accountId", "scope"]),
  { key: "hasPassword", kind: "boolean", computed: true },
  { key: "hasProviderTokens", kind: "boolean", computed: true },
  ...pickFields(accountModel, ["createdAt", "updatedAt"]),
]);

export type ExportedAccount = ModelValue<typeof exportedAccountModel>;

/**
 * A passkey as its owner knows it: a view of the passkey's declaration (passkey-models.ts), in this
 * order, with its transports as a list. Its public key, credential id and counter are left out:
 * none is a secret, but none tells the user anything; they only matter to the server's checks.
 */
export const exportedPasskeyModel = defineModel([
  ...pickFields(passkeyModel, ["id", "name", "aaguid", "authenticatorName", "deviceType", "backedUp"]),
  { key: "transports", kind: "stringList", computed: true },
  ...pickFields(passkeyModel, ["createdAt", "lastUsedAt"]),
]);

export type ExportedPasskey = ModelValue<typeof exportedPasskeyModel>;

/**
 * A session as its user knows it: the fields named here, of the session's declaration (models.ts
 * sessionModel), in this order. Named, not "all but the secrets": a field added to sessions is
 * exported once someone decides it is the user's data, never by default. Not the token, nor the
 * user's own id, nor whom an impersonation was by (those sessions are left out).
 */
export const exportedSessionModel = pickFields(sessionModel, [
  "id",
  "createdAt",
  "updatedAt",
  "expiresAt",
  "ipAddress",
  "userAgent",
  "activeOrganizationId",
]);

export type ExportedSession = ModelValue<typeof exportedSessionModel>;

interface OrganizationName {
  name: string;
  slug: string;
}

interface ExportedMembership {
  id: string;
  organizationId: string;
  role: string;
  createdAt: Date;
  organization: OrganizationName | null;
}

interface ExportedTeamMembership {
  id: string;
  teamId: string;
  organizationId: string;
  createdAt: Date;
}

interface ExportedInvitationReceived {
  id: string;
  organizationId: string;
  role: string;
  status: string;
  expiresAt: Date;
  createdAt: Date;
  organization: OrganizationName | null;
}

interface ExportedInvitationSent {
  id: string;
  organizationId: string;
  email: string;
  role: string;
  status: string;
  createdAt: Date;
}

/**
 * An API key as its owner knows it: the fields named here, of the key's declaration
 * (api-key-models.ts apiKeyModel), an allow-list as for sessions. Never its hash (the model has
 * none), nor its limits and metadata, which are the app's bookkeeping.
 */
export const exportedApiKeyModel = pickFields(apiKeyModel, [
  "id",
  "name",
  "prefix",
  "start",
  "enabled",
  "expiresAt",
  "permissions",
  "createdAt",
]);

export type ExportedApiKey = ModelValue<typeof exportedApiKeyModel>;

/**
 * One audit event about the user. `performedBySelf` false: done by someone else (an administrator,
 * an operator); then `reason`, `ipAddress` and `userAgent` are null and `details` keeps only the
 * facts of what changed for the user (features/user-export/rules.ts).
 */
export const exportedAuditEventModel = defineModel([
  ...pickFields(auditEventModel, ["id", "action", "createdAt"]),
  { key: "performedBySelf", kind: "boolean", computed: true },
  ...pickFields(auditEventModel, ["reason", "ipAddress", "userAgent", "details"]),
]);

export type ExportedAuditEvent = ModelValue<typeof exportedAuditEventModel>;

const organizationNameSchema = z.strictObject({ name: z.string(), slug: z.string() });

const userExportSchema: z.ZodType<UserExport> = z.strictObject({
  exportedAt: z.date(),
  user: z.strictObject(modelShape(exportedUserModel)),
  accounts: z.array(z.strictObject(modelShape(exportedAccountModel))),
  passkeys: z.array(z.strictObject(modelShape(exportedPasskeyModel))),
  sessions: z.array(z.strictObject(modelShape(exportedSessionModel))),
  memberships: z.array(
    z.strictObject({
      id: z.string(),
      organizationId: z.string(),
      role: z.string(),
      createdAt: z.date(),
      organization: organizationNameSchema.nullable(),
    }),
  ),
  teamMemberships: z.array(
    z.strictObject({ id: z.string(), teamId: z.string(), organizationId: z.string(), createdAt: z.date() }),
  ),
  invitationsReceived: z.array(
    z.strictObject({
      id: z.string(),
      organizationId: z.string(),
      role: z.string(),
      status: z.string(),
      expiresAt: z.date(),
      createdAt: z.date(),
      organization: organizationNameSchema.nullable(),
    }),
  ),
  invitationsSent: z.array(
    z.strictObject({
      id: z.string(),
      organizationId: z.string(),
      email: z.string(),
      role: z.string(),
      status: z.string(),
      createdAt: z.date(),
    }),
  ),
  apiKeys: z.array(z.strictObject(modelShape(exportedApiKeyModel))),
  twoFactor: z.strictObject({ enabled: z.boolean(), verified: z.boolean(), createdAt: z.date() }).nullable(),
  auditEvents: z.array(z.strictObject(modelShape(exportedAuditEventModel))),
});

/**
 * "Download my data". A fresh session, as for the other reads that show what a stolen session
 * should not collect at leisure (list-sessions); refused while impersonating (the export is the
 * user's, not an administrator's way around the admin area's own rules).
 */
export const exportUserDataContract = defineContract({
  name: "exportUserData",
  method: "GET",
  path: "/export-user-data",
  auth: "fresh-session",
  response: userExportSchema,
  errors: [],
  summary:
    "Everything Tessera holds about the caller, as JSON (GDPR art. 15/20): no secrets, and no staff details of what administrators did.",
  notes:
    '"download my data" (GDPR art. 15/20): the user, accounts, passkeys, live sessions, memberships, invitations, API keys, second factor and audit events as JSON; no secret (hashes, tokens, TOTP secret), and of what administrators did only what happened and when (no actor, IP, user agent or ban reason); refused while impersonating.',
  tags: ["account"],
});
