import { z } from "zod";
import { jsonValueField } from "./api-key-fields.ts";

/**
 * The catalogue of events (features/events; docs/architecture.md "Events written with the change"):
 * each type with what it means and the schema of its `data`. `data` carries ids and the changed
 * fields, never a secret: no token, hash, key or second-factor secret. The OpenAPI document's
 * `webhooks` section is generated from this table (openapi/webhooks.ts).
 */
const id = z.string().describe("A 24-hex id.");
const nullableText = z.string().nullable();

const userChanges = z
  .strictObject({
    name: z.string().optional(),
    email: z.string().optional(),
    image: nullableText.optional(),
    language: z.string().optional(),
    role: z.string().optional(),
    emailVerified: z.boolean().optional(),
  })
  .describe("The changed fields with their new values.");

const organizationChanges = z
  .strictObject({
    name: z.string().optional(),
    slug: z.string().optional(),
    logo: nullableText.optional(),
    metadata: jsonValueField.optional(),
  })
  .describe("The changed fields with their new values.");

const ofUser = z.strictObject({ userId: id });
const ofSession = z.strictObject({ sessionId: id, userId: id });
const ofOrganization = z.strictObject({ organizationId: id });
const ofMember = z.strictObject({ memberId: id, organizationId: id, userId: id, role: z.string() });
const ofInvitation = z.strictObject({ invitationId: id, organizationId: id, email: z.string() });
const ofTeam = z.strictObject({ teamId: id, organizationId: id, name: z.string() });
const ofTeamMember = z.strictObject({ teamId: id, organizationId: id, userId: id });
const ofApiKey = z.strictObject({ apiKeyId: id, userId: id, name: nullableText });
const ofPasskey = z.strictObject({ passkeyId: id, userId: id, name: nullableText });

function type<S extends z.ZodType>(summary: string, data: S) {
  return { summary, data };
}

export const EVENT_CATALOGUE = {
  "user.created": type(
    "A user was created (sign-up, social or passwordless first sign-in, admin, import).",
    z.strictObject({ userId: id, email: z.string(), name: z.string(), emailVerified: z.boolean() }),
  ),
  "user.updated": type(
    "A user's profile, address or role changed.",
    z.strictObject({ userId: id, changes: userChanges }),
  ),
  "user.deleted": type("A user and their data were deleted.", ofUser),
  "user.banned": type(
    "An admin banned a user.",
    z.strictObject({ userId: id, banReason: nullableText, banExpires: nullableText }),
  ),
  "user.unbanned": type("An admin lifted a user's ban.", ofUser),
  "session.created": type("A session was created (a sign-in, or an admin's impersonation).", ofSession),
  "session.revoked": type("A session was signed out or revoked.", ofSession),
  "email.verified": type("A user proved their address.", ofUser),
  "password.changed": type("A user's password was set, changed or reset.", ofUser),
  "organization.created": type(
    "An organization was created.",
    z.strictObject({ organizationId: id, name: z.string(), slug: z.string() }),
  ),
  "organization.updated": type(
    "An organization's name, slug, logo or metadata changed.",
    z.strictObject({ organizationId: id, changes: organizationChanges }),
  ),
  "organization.deleted": type("An organization and its data were deleted.", ofOrganization),
  "member.added": type("A user became a member of an organization.", ofMember),
  "member.updated": type("A member's role changed.", ofMember),
  "member.removed": type("A member left or was removed.", ofMember),
  "invitation.created": type(
    "An invitation was sent.",
    z.strictObject({
      invitationId: id,
      organizationId: id,
      email: z.string(),
      role: z.string(),
      teamId: id.nullable(),
      inviterId: id,
    }),
  ),
  "invitation.accepted": type("An invitation was accepted.", ofInvitation),
  "invitation.rejected": type("An invitation was rejected.", ofInvitation),
  "invitation.canceled": type("An invitation was canceled.", ofInvitation),
  "team.created": type("A team was created.", ofTeam),
  "team.updated": type("A team was renamed.", ofTeam),
  "team.deleted": type("A team was deleted.", ofTeam),
  "team_member.added": type("A member joined a team.", ofTeamMember),
  "team_member.removed": type("A member left a team.", ofTeamMember),
  "api_key.created": type("An API key was created.", ofApiKey),
  "api_key.revoked": type("An API key was deleted.", ofApiKey),
  "two_factor.enabled": type("A user confirmed a second factor.", ofUser),
  "two_factor.disabled": type("A user turned their second factor off.", ofUser),
  "passkey.registered": type("A user registered a passkey.", ofPasskey),
  "passkey.deleted": type("A user deleted a passkey.", ofPasskey),
} as const;

export type EventType = keyof typeof EVENT_CATALOGUE;

export const EVENT_TYPES = Object.keys(EVENT_CATALOGUE) as EventType[];

/**
 * The types whose events belong to an organization: those whose `data` names it, which is the
 * organization each is recorded under (features/organization's stores). Only these reach an
 * organization's webhooks; the others (users, sessions, keys, passkeys) are the app's.
 */
export const ORGANIZATION_EVENT_TYPES = EVENT_TYPES.filter(
  (type) => "organizationId" in EVENT_CATALOGUE[type].data.shape,
);

/** What an event of `T` carries in `data`. */
export type EventData<T extends EventType> = z.infer<(typeof EVENT_CATALOGUE)[T]["data"]>;

/** An event as listings answer it and webhooks deliver it. */
export interface TesseraEvent {
  id: string;
  type: EventType;
  /** ISO 8601. */
  createdAt: string;
  organizationId: string | null;
  userId: string | null;
  /** Written only when an operator (not a user) made the change. */
  actor?: string | null;
  data: Record<string, unknown>;
}

export const eventTypeField = z.enum(EVENT_TYPES as [EventType, ...EventType[]]);

export const tesseraEventSchema: z.ZodType<TesseraEvent> = z.strictObject({
  id: z.string(),
  type: eventTypeField,
  createdAt: z.string(),
  organizationId: id.nullable(),
  userId: id.nullable(),
  actor: nullableText.optional(),
  data: z.record(z.string(), jsonValueField),
});
