import type { Collection, Db } from "mongodb";
import type {
  AccountDoc,
  ApiKeyDoc,
  ApiKeyUseDoc,
  AuditEventDoc,
  EmailClaimDoc,
  EventDoc,
  InvitationDoc,
  ListingVersionDoc,
  MailDoc,
  MailLimitDoc,
  MemberDoc,
  MigrationDoc,
  OrganizationDoc,
  OrganizationDomainDoc,
  PasskeyDoc,
  PendingDeletionDoc,
  RateLimitDoc,
  SamlReplayDoc,
  ScimGroupDoc,
  ScimTokenDoc,
  ScimUserDoc,
  SessionDoc,
  SsoProviderDoc,
  TeamDoc,
  TeamMemberDoc,
  TwoFactorDoc,
  UserDoc,
  UserTimelineDoc,
  VerificationDoc,
  WebhookClaimDoc,
  WebhookCursorDoc,
  WebhookDeliveryDoc,
  WebhookEndpointDoc,
} from "./documents.ts";
import { createEventHub, type EventHub } from "./event-hub.ts";
import type { LeaseClaimDoc } from "./lease-claims.ts";

const COLLECTION_NAMES = {
  users: "users",
  emailClaims: "emailClaims",
  userTimeline: "userTimeline",
  sessions: "sessions",
  accounts: "accounts",
  verifications: "verifications",
  rateLimits: "rateLimits",
  mailLimits: "mailLimits",
  mails: "mails",
  mailClaims: "mailClaims",
  migrations: "_migrations",
  apiKeys: "apiKeys",
  apiKeyUses: "apiKeyUses",
  twoFactors: "twoFactors",
  auditEvents: "auditEvents",
  organizations: "organizations",
  members: "members",
  invitations: "invitations",
  teams: "teams",
  teamMembers: "teamMembers",
  pendingDeletions: "pendingDeletions",
  listingVersions: "listingVersions",
  passkeys: "passkeys",
  samlReplays: "samlReplays",
  scimTokens: "scimTokens",
  scimUsers: "scimUsers",
  scimGroups: "scimGroups",
  webhookEndpoints: "webhookEndpoints",
  webhookDeliveries: "webhookDeliveries",
  webhookCursors: "webhookCursors",
  webhookClaims: "webhookClaims",
  organizationDomains: "organizationDomains",
  ssoProviders: "ssoProviders",
  events: "events",
} as const;

export interface Collections {
  db: Db;
  users: Collection<UserDoc>;
  emailClaims: Collection<EmailClaimDoc>;
  userTimeline: Collection<UserTimelineDoc>;
  sessions: Collection<SessionDoc>;
  accounts: Collection<AccountDoc>;
  verifications: Collection<VerificationDoc>;
  rateLimits: Collection<RateLimitDoc>;
  mailLimits: Collection<MailLimitDoc>;
  mails: Collection<MailDoc>;
  mailClaims: Collection<LeaseClaimDoc>;
  migrations: Collection<MigrationDoc>;
  apiKeys: Collection<ApiKeyDoc>;
  apiKeyUses: Collection<ApiKeyUseDoc>;
  twoFactors: Collection<TwoFactorDoc>;
  auditEvents: Collection<AuditEventDoc>;
  organizations: Collection<OrganizationDoc>;
  members: Collection<MemberDoc>;
  invitations: Collection<InvitationDoc>;
  teams: Collection<TeamDoc>;
  teamMembers: Collection<TeamMemberDoc>;
  pendingDeletions: Collection<PendingDeletionDoc>;
  listingVersions: Collection<ListingVersionDoc>;
  passkeys: Collection<PasskeyDoc>;
  samlReplays: Collection<SamlReplayDoc>;
  scimTokens: Collection<ScimTokenDoc>;
  scimUsers: Collection<ScimUserDoc>;
  scimGroups: Collection<ScimGroupDoc>;
  webhookEndpoints: Collection<WebhookEndpointDoc>;
  webhookDeliveries: Collection<WebhookDeliveryDoc>;
  webhookCursors: Collection<WebhookCursorDoc>;
  webhookClaims: Collection<WebhookClaimDoc>;
  organizationDomains: Collection<OrganizationDomainDoc>;
  ssoProviders: Collection<SsoProviderDoc>;
  events: Collection<EventDoc>;
  /** Not a collection: the instance's news of stored events (db/event-hub.ts). */
  eventHub: EventHub;
}

/** `now`: the instance's clock (createAuth passes options.clock), which dates events (db/event-hub.ts). */
export function openCollections(db: Db, now: () => Date = () => new Date()): Collections {
  return {
    db,
    users: db.collection<UserDoc>(COLLECTION_NAMES.users),
    emailClaims: db.collection<EmailClaimDoc>(COLLECTION_NAMES.emailClaims),
    userTimeline: db.collection<UserTimelineDoc>(COLLECTION_NAMES.userTimeline),
    sessions: db.collection<SessionDoc>(COLLECTION_NAMES.sessions),
    accounts: db.collection<AccountDoc>(COLLECTION_NAMES.accounts),
    verifications: db.collection<VerificationDoc>(COLLECTION_NAMES.verifications),
    rateLimits: db.collection<RateLimitDoc>(COLLECTION_NAMES.rateLimits),
    mailLimits: db.collection<MailLimitDoc>(COLLECTION_NAMES.mailLimits),
    mails: db.collection<MailDoc>(COLLECTION_NAMES.mails),
    mailClaims: db.collection<LeaseClaimDoc>(COLLECTION_NAMES.mailClaims),
    migrations: db.collection<MigrationDoc>(COLLECTION_NAMES.migrations),
    apiKeys: db.collection<ApiKeyDoc>(COLLECTION_NAMES.apiKeys),
    apiKeyUses: db.collection<ApiKeyUseDoc>(COLLECTION_NAMES.apiKeyUses),
    twoFactors: db.collection<TwoFactorDoc>(COLLECTION_NAMES.twoFactors),
    auditEvents: db.collection<AuditEventDoc>(COLLECTION_NAMES.auditEvents),
    organizations: db.collection<OrganizationDoc>(COLLECTION_NAMES.organizations),
    members: db.collection<MemberDoc>(COLLECTION_NAMES.members),
    invitations: db.collection<InvitationDoc>(COLLECTION_NAMES.invitations),
    teams: db.collection<TeamDoc>(COLLECTION_NAMES.teams),
    teamMembers: db.collection<TeamMemberDoc>(COLLECTION_NAMES.teamMembers),
    pendingDeletions: db.collection<PendingDeletionDoc>(COLLECTION_NAMES.pendingDeletions),
    listingVersions: db.collection<ListingVersionDoc>(COLLECTION_NAMES.listingVersions),
    passkeys: db.collection<PasskeyDoc>(COLLECTION_NAMES.passkeys),
    samlReplays: db.collection<SamlReplayDoc>(COLLECTION_NAMES.samlReplays),
    scimTokens: db.collection<ScimTokenDoc>(COLLECTION_NAMES.scimTokens),
    scimUsers: db.collection<ScimUserDoc>(COLLECTION_NAMES.scimUsers),
    scimGroups: db.collection<ScimGroupDoc>(COLLECTION_NAMES.scimGroups),
    webhookEndpoints: db.collection<WebhookEndpointDoc>(COLLECTION_NAMES.webhookEndpoints),
    webhookDeliveries: db.collection<WebhookDeliveryDoc>(COLLECTION_NAMES.webhookDeliveries),
    webhookCursors: db.collection<WebhookCursorDoc>(COLLECTION_NAMES.webhookCursors),
    webhookClaims: db.collection<WebhookClaimDoc>(COLLECTION_NAMES.webhookClaims),
    organizationDomains: db.collection<OrganizationDomainDoc>(COLLECTION_NAMES.organizationDomains),
    ssoProviders: db.collection<SsoProviderDoc>(COLLECTION_NAMES.ssoProviders),
    events: db.collection<EventDoc>(COLLECTION_NAMES.events),
    eventHub: createEventHub(now),
  };
}

/** A store function's parameters after its collections: what a service wrapper passes on. */
export type AfterCollections<F> = F extends (collections: Collections, ...rest: infer Rest) => unknown
  ? Rest
  : never;
