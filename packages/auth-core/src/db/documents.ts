import type { ObjectId } from "mongodb";
import type { accountModel } from "../contracts/account-models.ts";
import type { auditEventModel } from "../contracts/admin-models.ts";
import type { apiKeyModel } from "../contracts/api-key-models.ts";
import type { sessionModel } from "../contracts/models.ts";
import type {
  invitationModel,
  memberModel,
  organizationModel,
  teamMemberModel,
  teamModel,
} from "../contracts/organization-models.ts";
import type { PasskeyPolicy } from "../contracts/organization-passkey-policy.ts";
import type { passkeyModel } from "../contracts/passkey-models.ts";
import type { SsoMapping, SsoSamlConfig } from "../contracts/sso-models.ts";
import type { ModelDoc } from "./model.ts";

/**
 * MongoDB document shapes. `_id` is an ObjectId; the API exposes it as the 24-hex `id`
 * (conversion only in the store layer, docs/decisions/0004-identifiers-and-storage.md "Identifiers and storage").
 */
export interface UserDoc extends EventOutbox {
  _id: ObjectId;
  /** Trimmed and lower-cased; unique index. */
  email: string;
  emailVerified: boolean;
  name: string;
  image: string | null;
  language?: string;
  /** Admin-area role(s), comma separated; absent means `admin.defaultRole` (features/admin). */
  role?: string;
  /** Admin ban (features/admin): active while `banned` and `banExpires` is null or in the future. */
  banned?: boolean;
  banReason?: string | null;
  banExpires?: Date | null;
  /** True once a first TOTP code confirmed the enrollment (features/two-factor); gates every sign-in. */
  twoFactorEnabled?: boolean;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * Who claimed an address (docs/scale.md): `_id` is the normalized address. Written before the user
 * (or the user's new address), so of concurrent writers of one address exactly one insert wins;
 * checked against the user when a writer meets it: a claim whose user is gone or now has another
 * address is stale and is taken over by the next claimer; the unique email index on users still
 * decides between writers (features/users/store.ts takeEmailClaim, repairEmailClaim). Reads of a
 * user by address go to that index (findUserByEmail), not through the claim.
 */
export interface EmailClaimDoc {
  _id: string;
  userId: ObjectId;
  createdAt: Date;
}

/**
 * The users in creation order (docs/scale.md): `_id` is `t` + the creation time + the user id
 * (db/ids.ts timelineIdOf; owner: features/users/timeline-store.ts), so the newest users are the first rows of an `_id`
 * range in descending order. Written before the user, removed after it; admin list-users reads it
 * only when its count is the users' count and every entry read has its user.
 */
export interface UserTimelineDoc {
  _id: string;
  userId: ObjectId;
}

/**
 * A listing version (db/listing-version.ts): `_id` "users" is bumped after every write to a user
 * or the users' timeline, so admin list-users can serve a page it answered before while nothing
 * changed (db/listing-cache.ts). Absent reads as 0.
 */
export interface ListingVersionDoc {
  _id: string;
  version: number;
}

/**
 * A deletion under way (features/pending-deletions): written before the row whose delete commits it,
 * removed once everything that pointed at it is gone. A crash between the two leaves it here, and
 * `auth.cleanup()` finishes the deletion. `user` keeps what the finish needs once the row is gone
 * (the address to release, the delete after-hook's argument).
 */
export interface PendingDeletionDoc {
  _id: ObjectId;
  kind: "user" | "organization" | "rows";
  targetId: ObjectId;
  user: UserDoc | null;
  createdAt: Date;
  /**
   * The events the deletion writes (features/events), relayed when it completes: stored with the
   * entry, so a deletion a crash cut is finished with its events and one abandoned goes without.
   */
  _events?: EventDoc[];
  /** kind "rows": the owner's collection (features/events EventSource) and each event's row. */
  source?: string;
  targetIds?: ObjectId[];
}

/**
 * A session: the fields of contracts/models.ts sessionModel, plus `dontRemember`. `token` is 32 chars
 * [A-Za-z0-9] with a unique index; `activeTeamId` is set by organization/set-active-team (teams on)
 * and absent on sessions that never had one; `impersonatedBy` is the admin's user id on an admin's
 * impersonation session (features/admin).
 */
export type SessionDoc = ModelDoc<typeof sessionModel> &
  EventOutbox & {
    /** rememberMe false: short-lived, never refreshed. */
    dontRemember: boolean;
  };

/**
 * A linked account: the fields of contracts/account-models.ts accountModel (providerId "credential"
 * is the email-and-password account), plus the secrets no view shows.
 */
export type AccountDoc = ModelDoc<typeof accountModel> &
  EventOutbox & {
    password: string | null;
    accessToken: string | null;
    refreshToken: string | null;
    idToken: string | null;
    accessTokenExpiresAt: Date | null;
    refreshTokenExpiresAt: Date | null;
    /**
     * Credential accounts only: the password was set by an admin (set-user-password) and signs nobody
     * in until the user resets or changes it (docs/security.md). Absent otherwise.
     */
    passwordResetRequired?: true;
  };

export interface VerificationDoc {
  _id: ObjectId;
  /**
   * `reset-password:{…}`, `delete-account-{…}` with the token's SHA-256 in place of the
   * token (docs/security.md); unique index.
   */
  identifier: string;
  value: string;
  expiresAt: Date;
  createdAt: Date;
  updatedAt: Date;
}

export interface RateLimitDoc {
  /** `<key>|<window>s|<window index>|<slot>` (http/rate-limit.ts); `count` is the slot. */
  _id: string;
  count: number;
  expiresAt: Date;
}

/** One mail counted against the per-recipient limit (features/mail-limit): `<kind>|<address key>|<window>|<slot>`. */
export interface MailLimitDoc {
  _id: string;
  /** The end of the slot's window; auth.cleanup() removes it from then on. */
  expiresAt: Date;
}

/**
 * A mail in the durable outbox (features/mail-outbox owns `mails`). Its body is kept only until it
 * is sent (then nulled) or its token expires (docs/security.md "Mail outbox"); the state row stays
 * `mailQueue.keepDays` for the lists. While an instance holds its lease, `nextAttemptAt` is the
 * lease's end, so the workers' due query needs no second condition.
 */
export interface MailDoc {
  _id: ObjectId;
  kind: string;
  to: string;
  subject: string | null;
  text: string | null;
  html: string | null;
  state: "queued" | "sent" | "failed" | "dropped";
  attempts: number;
  nextAttemptAt: Date | null;
  lease: { owner: string; until: Date } | null;
  /** How many claims were taken (db/lease-claims.ts), the next claim's number. */
  claims: number;
  /** The server's answer (or the connection error) of the last failed attempt. */
  lastError: string | null;
  /** The end of the mailed token's life: undelivered by then, the mail is dropped. */
  expiresAt: Date;
  userId: ObjectId | null;
  organizationId: ObjectId | null;
  invitationId: ObjectId | null;
  createdAt: Date;
  updatedAt: Date;
  sentAt: Date | null;
}

export interface MigrationDoc {
  _id: string;
  appliedAt: Date;
}

/**
 * The admin audit trail (features/admin): who did what to whom, when, from where — the fields of
 * contracts/admin-models.ts auditEventModel. `actor` is written only for an operator (actorId null),
 * so an event may lack it.
 */
export type AuditEventDoc = Omit<ModelDoc<typeof auditEventModel>, "actor"> & { actor?: string | null };

/**
 * A change, as webhooks and the event listing see it (features/events; catalogue in
 * contracts/events.ts). `_id` is `evt_` + a time-ordered id (features/events/ids.ts), so an `_id`
 * range is the events in the order they happened. `data` holds ids and changed fields only, never
 * tokens, hashes, keys or secrets. `actor` is written only for an operator, as on AuditEventDoc.
 */
export interface EventDoc {
  _id: string;
  type: string;
  createdAt: Date;
  organizationId: string | null;
  userId: string | null;
  actor?: string | null;
  data: Record<string, unknown>;
}

/**
 * The outbox of a changed document (docs/architecture.md, "Events written with the change"): the
 * owner's single-document write also pushes the event here, so the change and its event are stored
 * by one atomic write; the relay copies it into `events` and pulls it. Never answered or exported.
 */
export interface EventOutbox {
  _events?: EventDoc[];
}

/**
 * An organization's SSO connection (features/sso, docs/security.md "Single sign-on"), keyed by its
 * unique `providerId` (db/migrations/0014-sso-providers.ts). `domain`: the declared domains, lower
 * case, comma-separated; a sign-in is routed by them only once features/sso-domains has the domain
 * verified for the same organization. Secrets (the OIDC client secret, SAML private keys) are
 * AES-256-GCM envelopes (crypto/encryption.ts) and never answered.
 */
export interface SsoProviderDoc {
  _id: ObjectId;
  providerId: string;
  organizationId: ObjectId;
  /** Who registered it (through a setup link: its sender); null: an operator (`tessera orgs sso add`). */
  userId: ObjectId | null;
  type: "oidc" | "saml";
  issuer: string;
  /** As given (Better Auth's field). */
  domain: string;
  /** The declared domains normalized (features/sso-domains normalizeDomain); indexed. */
  domains: string[];
  oidcConfig: SsoOidcConfigDoc | null;
  /** The register payload's samlConfig, its private keys and passphrases sealed (features/sso/saml). */
  samlConfig: SsoSamlConfig | null;
  /** Which claims or attributes carry the user's fields (defaults in features/sso/rules.ts). */
  mapping: SsoMapping;
  /** The role of the membership a first sign-in creates. */
  defaultRole: string;
  /** Off: sign-in through the connection is refused (set up and tested first). */
  enabled: boolean;
  createdAt: Date;
  updatedAt: Date;
}

/** OIDC settings, endpoints as discovered at registration (or given with skipDiscovery). */
export interface SsoOidcConfigDoc {
  clientId: string;
  /** An envelope (crypto/encryption.ts). */
  clientSecret: string;
  discoveryEndpoint: string;
  authorizationEndpoint: string;
  tokenEndpoint: string;
  userInfoEndpoint: string | null;
  jwksEndpoint: string;
  tokenEndpointAuthentication: "client_secret_basic" | "client_secret_post";
  scopes: string[];
  pkce: boolean;
  /** Each sign-in rewrites the user's name and image from the provider. */
  overrideUserInfo: boolean;
}

/**
 * A domain an organization claimed (features/sso-domains, docs/security.md "Verified domains").
 * `domain`: lower case, ASCII (punycode), no trailing dot. `verifiedKey` carries the one-owner rule
 * in a unique index FerretDB v1 can hold (no partial indexes): the domain itself once verified,
 * `pending:<_id>` before, so any number of organizations may claim a domain and one may hold it.
 */
export interface OrganizationDomainDoc {
  _id: ObjectId;
  organizationId: ObjectId;
  domain: string;
  /** What the proof must publish (random, not a secret: publishing it is the point). */
  token: string;
  status: "pending" | "verified";
  verifiedKey: string;
  /** How it was proven; "declared": `sso.trustDeclaredDomains` (development only). */
  method: "dns" | "http" | "declared" | null;
  settings: { autoJoin: boolean; autoJoinRole: string; requireSso: boolean };
  createdAt: Date;
  verifiedAt: Date | null;
  /** A pending claim lapses then (checked in code); null once verified. */
  expiresAt: Date | null;
}

/**
 * A webhook endpoint (features/webhooks): app-wide when `organizationId` is null (the app's admins
 * manage it, every event), else an organization's (its owners and admins, its events only).
 * `secrets` are AES-256-GCM envelopes (crypto/encryption.ts) of `whsec_…` secrets, newest first; an
 * older one carries `expiresAt`, the end of its rotation overlap (docs/security.md "Webhooks").
 */
export interface WebhookEndpointDoc {
  _id: ObjectId;
  organizationId: ObjectId | null;
  url: string;
  /** Event types delivered; empty: all. */
  eventTypes: string[];
  secrets: { secret: string; createdAt: Date; expiresAt: Date | null }[];
  enabled: boolean;
  disabledReason: string | null;
  /** Since when every attempt has failed; null after a success. Five days of it disable the endpoint. */
  failingSince: Date | null;
  description: string;
  createdBy: ObjectId | null;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * One event for one endpoint (features/webhooks). `_id` is the `webhook-id` every attempt and replay
 * sends, derived from the event and the endpoint, so fanning the same event out twice writes one
 * row. `body` is the exact JSON text signed and sent, kept so every retry sends the same bytes.
 * `lease`: the instance attempting it and until when; an expired lease may be taken over.
 */
export interface WebhookDeliveryDoc {
  _id: string;
  endpointId: ObjectId;
  organizationId: ObjectId | null;
  eventId: string;
  eventType: string;
  body: string;
  status: "pending" | "failed" | "delivered" | "dead";
  attempts: { at: Date; durationMs: number; statusCode: number | null; error: string | null }[];
  /** Failed attempts since it was last scheduled afresh (created or replayed): its place in the retry schedule. */
  failures: number;
  nextAttemptAt: Date | null;
  lease: { owner: string; until: Date } | null;
  /** How many claims were made (webhookClaims `<_id>|<n>`): the next claim's `n`. */
  claims: number;
  createdAt: Date;
}

/**
 * One claim of a webhook delivery by an instance (features/webhooks store.ts claimDelivery),
 * `_id` `<delivery _id>|<n>`: a unique insert decides which instance makes the attempt.
 */
export interface WebhookClaimDoc {
  _id: string;
  owner: string;
  until: Date;
}

/** How far the webhook fan-out has read the events (features/webhooks), `_id` "fan-out". */
export interface WebhookCursorDoc {
  _id: string;
  afterId: string | null;
  updatedAt: Date;
}

/**
 * A SAML assertion ID already used to sign in (features/sso/saml/replay-store.ts), kept until
 * `expiresAt` (its NotOnOrAfter plus the clock skew). Unique index on (issuer, assertionId).
 */
export interface SamlReplayDoc {
  _id: ObjectId;
  /** The IdP's entity id (the assertion's signed Issuer). */
  issuer: string;
  assertionId: string;
  providerId: string;
  expiresAt: Date;
  createdAt: Date;
}

/**
 * A SCIM bearer token of one organization (features/scim/tokens): only its SHA-256 is kept, looked up
 * by the unique `tokenHash` index; one token per (organizationId, providerId), replaced on rotation.
 */
export interface ScimTokenDoc {
  _id: ObjectId;
  organizationId: ObjectId;
  /** The connection's name in the organization ("okta", "entra"): what list and revoke name it by. */
  providerId: string;
  /** SHA-256 of the whole token, base64url. */
  tokenHash: string;
  /** The member who made it; null for one declared in the options. */
  createdBy: ObjectId | null;
  createdAt: Date;
}

/**
 * The directory's record of a user in an organization (features/scim/users): what SCIM knows that the
 * account does not (externalId, given and family name), whether the directory has it active (an
 * inactive user holds no membership), and whether the directory created the account.
 */
export interface ScimUserDoc {
  _id: ObjectId;
  organizationId: ObjectId;
  userId: ObjectId;
  /** The directory's userName as sent (what GET answers); any string, not only an address. */
  userName: string;
  /** userName lower-cased: unique in the organization (RFC 7643 §4.1.1, caseExact false). */
  userNameKey: string;
  externalId: string | null;
  /** name.formatted as sent; rows stored before it was kept have none (null). */
  formatted?: string | null;
  givenName: string | null;
  familyName: string | null;
  active: boolean;
  /** The directory removed `active` (RFC 7644 §3.5.2.2): answered unassigned, read as active. */
  activeUnset?: boolean;
  /** The account was created by this directory (DELETE then deletes it when nobody else holds it). */
  createdByDirectory: boolean;
  /** The token that provisioned it (scimTokens _id). */
  tokenId: ObjectId;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * A SCIM group of an organization (features/scim/groups): the team the directory made for it (the
 * group's id and displayName are the team's), the directory's externalId, and the team role the
 * group's members hold in that team.
 */
export interface ScimGroupDoc {
  _id: ObjectId;
  organizationId: ObjectId;
  teamId: ObjectId;
  externalId: string | null;
  /**
   * A team role (features/organization/teams/rules.ts): team-admin, team-member or a team-scoped
   * custom role; null when the directory gave none (its members are team members).
   */
  role: string | null;
  /** The token that created it (scimTokens _id). */
  tokenId: ObjectId;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * A user's second factor (features/two-factor); unique index on `userId`. Nothing here is readable
 * without the server secret: `secret` and `backupCodes` are AES-256-GCM envelopes (crypto/encryption.ts).
 */
export interface TwoFactorDoc {
  _id: ObjectId;
  userId: ObjectId;
  /** Encrypted base32 TOTP secret. */
  secret: string;
  /** Encrypted JSON array of the current backup codes. */
  backupCodes: string;
  /** Names the current set of backup codes: a used code's one-time marker carries it. */
  backupCodesBatch: string;
  /** False until a first TOTP code confirms the enrollment. */
  verified: boolean;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * An API key (features/api-key). The key itself is never stored: only its SHA-256 hash (unique
 * index) and a short clear `start` for display (docs/decisions/0015-api-keys.md "API keys").
 */
/**
 * An API key: the fields of contracts/api-key-models.ts apiKeyModel (but the computed `remaining`),
 * plus what the API never shows. `permissions` is resource → actions, e.g. `{ files: ["read"] }`
 * (null grants nothing checked by permission); `metadata` is JSON text, so that client-chosen keys
 * never become document field names.
 */
export type ApiKeyDoc = ModelDoc<typeof apiKeyModel> &
  EventOutbox & {
    /** base64url SHA-256 of the whole key; unique index. */
    keyHash: string;
    /** Uses allowed in the first usage period (null: unlimited); features/api-key/rules.ts. */
    remaining: number | null;
    /** When the usage budget was last set (creation, or a server update of the limits). */
    usageResetAt: Date;
    /**
     * True when the key's owner was the signed-in session (not a user named by server code): such a
     * key is what a stolen session could have minted, so signing out everywhere revokes it
     * (docs/security.md "Account recovery"). Absent on keys created before the field existed.
     */
    createdFromSession?: boolean;
  };

/**
 * One counted use of a limited API key: `_id = <keyId>|<budget start ms>|<period>|<slot>`. A use is
 * admitted by inserting the next free slot; the unique `_id` makes that exact under concurrency.
 */
export interface ApiKeyUseDoc {
  _id: string;
  keyId: ObjectId;
  /** End of the usage period (null for a budget without refill: kept as long as the key). */
  expiresAt: Date | null;
}

/**
 * A passkey (features/passkey, docs/passkeys.md): the fields of contracts/passkey-models.ts
 * passkeyModel — a WebAuthn credential's public key and what the authenticator reported about it —
 * plus what the API never shows. Unique index on `credentialID`; `userId` lists a user's.
 */
export type PasskeyDoc = ModelDoc<typeof passkeyModel> &
  EventOutbox & {
    /** The authenticator's transports ("internal", "hybrid"…), at most 10; answered comma separated. */
    transports: string[];
    /** base64url WebAuthn user handle given at registration: an assertion naming another is refused. */
    userHandle: string;
    /**
     * WebAuthn L3 §4 "uvInitialized": the authenticator verified the user (PIN, biometrics) at
     * registration or at a later sign-in. An organization's policy requiring user verification counts
     * only such passkeys (docs/passkeys.md "Authenticator policy"); absent (older rows) reads as false.
     */
    uvInitialized?: boolean;
    /**
     * Registered while the user's address was unverified: whoever registered it may not own the
     * mailbox, so the owner's later recovery by mail removes it (docs/passkeys.md "A pre-registered
     * account"). Absent otherwise.
     */
    registeredUnverified?: true;
  };

/**
 * docs/decisions/ Organization: the fields of contracts/organization-models.ts organizationModel, plus
 * `listingVersion`, bumped after each write that changes its member or invitation lists
 * (db/listing-version.ts; absent reads as 0). `slug` has a unique index; `metadata` is a record
 * stored as JSON text.
 *
 * `passkeyPolicy`: the authenticator policy (contracts/organization-passkey-policy.ts), absent until
 * set; it is not part of the organization's API value (set and read by its own endpoints).
 */
export type OrganizationDoc = ModelDoc<typeof organizationModel> &
  EventOutbox & {
    listingVersion?: number;
    passkeyPolicy?: PasskeyPolicy;
  };

/**
 * docs/decisions/ Member: the fields of contracts/organization-models.ts memberModel, plus `seat`. Unique
 * (organizationId, userId). `role` may be a comma separated list. `seat` is a number below the
 * membership limit, unique per organization: the insert that claims it is what keeps concurrent adds
 * and accepts under the limit (features/organization/members/seats.ts).
 */
export type MemberDoc = ModelDoc<typeof memberModel> & EventOutbox & { seat: number };

export type { InvitationStatus } from "../contracts/organization-models.ts";

/**
 * docs/decisions/ Invitation: the fields of contracts/organization-models.ts invitationModel, plus
 * `slot`, which has a unique index: `pending:<organizationId>:<email>` while pending (at most one
 * pending invitation per address and organization), `closed:<id>` afterwards. `teamId` is a comma
 * separated list of team ids, or null.
 */
export type InvitationDoc = ModelDoc<typeof invitationModel> & EventOutbox & { slot: string };

/** docs/decisions/ Team: the fields of contracts/organization-models.ts teamModel. */
export type TeamDoc = ModelDoc<typeof teamModel> & EventOutbox;

/**
 * A user in a team: the fields of contracts/organization-models.ts teamMemberModel, plus its team's
 * organization and `seat`. Unique (teamId, userId) and (teamId, seat), as for members.
 */
export type TeamMemberDoc = ModelDoc<typeof teamMemberModel> &
  EventOutbox & {
    organizationId: ObjectId;
    seat: number;
    /** The team role; absent on rows stored before team roles, which read as team-member. */
    role?: string;
  };

export const CREDENTIAL_PROVIDER_ID = "credential";
