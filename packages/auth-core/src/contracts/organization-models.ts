import { z } from "zod";
import { defineModel, type ModelValue, modelShape } from "./model.ts";

/**
 * The organization shapes the API answers with (docs/decisions/; Better Auth's field names), each a named
 * interface with a schema annotated to produce exactly it (contracts/models.ts explains why). Ids are
 * 24-hex strings; dates are `Date` for server code and ISO strings on the wire.
 */
/**
 * An organization, declared once: its API value, schema and stored document (db/documents.ts
 * OrganizationDoc) and its mapper (features/organization/organizations/types.ts) come from this list.
 * `metadata` is stored as JSON text; text that is not a JSON object reads as null.
 */
export const organizationModel = defineModel([
  { key: "id", stored: "_id", kind: "objectId" },
  { key: "name", kind: "string" },
  { key: "slug", kind: "string" },
  { key: "logo", kind: "string", nullable: true },
  { key: "metadata", kind: "jsonObject", nullable: "or absent" },
  { key: "createdAt", kind: "date" },
]);

export type Organization = ModelValue<typeof organizationModel>;

const organizationShape = modelShape(organizationModel);

export const organizationSchema: z.ZodType<Organization> = z.strictObject(organizationShape);

/**
 * A member, declared once: its API value, schema and stored document (db/documents.ts MemberDoc),
 * its mapper and JSON writers (features/organization/members/types.ts) all come from this list, in
 * this order. `role`: one role or a comma separated list; `teamId`: the member's first team, when
 * they joined with teams.
 */
export const memberModel = defineModel([
  { key: "id", stored: "_id", kind: "objectId" },
  { key: "organizationId", kind: "objectId" },
  { key: "userId", kind: "objectId" },
  { key: "role", kind: "string" },
  { key: "createdAt", kind: "date" },
  { key: "teamId", kind: "objectId", nullable: "or absent" },
]);

export type Member = ModelValue<typeof memberModel>;

const memberShape = modelShape(memberModel);

export const memberSchema: z.ZodType<Member> = z.strictObject(memberShape);

/** The public fields of a member's user (a projection of the stored user), declared once as for members. */
export const memberUserModel = defineModel([
  { key: "id", stored: "_id", kind: "objectId" },
  { key: "name", kind: "string" },
  { key: "email", kind: "string" },
  { key: "image", kind: "string", nullable: "or absent" },
]);

export type MemberUser = ModelValue<typeof memberUserModel>;

export const memberUserSchema: z.ZodType<MemberUser> = z.strictObject(modelShape(memberUserModel));

export interface MemberWithUser extends Member {
  user: MemberUser;
}

export const memberWithUserSchema: z.ZodType<MemberWithUser> = z.strictObject({
  ...memberShape,
  user: memberUserSchema,
});

export const INVITATION_STATUSES = ["pending", "accepted", "rejected", "canceled"] as const;
export type InvitationStatus = (typeof INVITATION_STATUSES)[number];

/**
 * An invitation, declared once: its API value, schema and stored document (db/documents.ts
 * InvitationDoc), its mapper and JSON writers (db/model.ts) all come from this list, in this order.
 * `role`: one role or a comma separated list; `teamId`: one team id or a comma separated list.
 */
export const invitationModel = defineModel([
  { key: "id", stored: "_id", kind: "objectId" },
  { key: "organizationId", kind: "objectId" },
  { key: "email", kind: "string" },
  { key: "role", kind: "string" },
  { key: "status", kind: "string", values: INVITATION_STATUSES },
  { key: "teamId", kind: "string", nullable: true },
  { key: "inviterId", kind: "objectId" },
  { key: "expiresAt", kind: "date" },
  { key: "createdAt", kind: "date" },
]);

export type Invitation = ModelValue<typeof invitationModel>;

export const invitationShape = modelShape(invitationModel);

export const invitationSchema: z.ZodType<Invitation> = z.strictObject(invitationShape);

/** Where the invitation's mail is (features/mail-outbox); null when none was queued (a mail hook sent it). */
export const INVITATION_MAIL_STATES = ["queued", "sent", "failed", "dropped"] as const;

/** list-invitations' row: the invitation and the state of its latest mail. */
export interface ListedInvitation extends Invitation {
  mailState: (typeof INVITATION_MAIL_STATES)[number] | null;
}

export const listedInvitationSchema: z.ZodType<ListedInvitation> = z.strictObject({
  ...invitationShape,
  mailState: z.enum(INVITATION_MAIL_STATES).nullable(),
});

/** get-invitation's answer: what the recipient needs to decide. */
export interface InvitationDetails extends Invitation {
  organizationName: string;
  organizationSlug: string;
  inviterEmail: string;
}

export const invitationDetailsSchema: z.ZodType<InvitationDetails> = z.strictObject({
  ...invitationShape,
  organizationName: z.string(),
  organizationSlug: z.string(),
  inviterEmail: z.string(),
});

/** An entry of list-user-invitations: a pending invitation with its organization's name. */
export interface UserInvitation extends Invitation {
  organizationName: string;
}

export const userInvitationSchema: z.ZodType<UserInvitation> = z.strictObject({
  ...invitationShape,
  organizationName: z.string(),
});

/**
 * A team, declared once: its API value, schema and stored document (db/documents.ts TeamDoc) and its
 * mapper (features/organization/teams/types.ts) come from this list. `updatedAt` is null until the
 * team is first renamed.
 */
export const teamModel = defineModel([
  { key: "id", stored: "_id", kind: "objectId" },
  { key: "name", kind: "string" },
  { key: "organizationId", kind: "objectId" },
  { key: "createdAt", kind: "date" },
  { key: "updatedAt", kind: "date", nullable: true },
]);

export type Team = ModelValue<typeof teamModel>;

export const teamSchema: z.ZodType<Team> = z.strictObject(modelShape(teamModel));

/**
 * A user in a team, declared once: its API value, schema and stored document (db/documents.ts
 * TeamMemberDoc) and its mapper (features/organization/teams/types.ts) come from this list. `role`:
 * the team role (`team-admin`, `team-member` or a team-scoped custom role); computed because rows
 * stored before team roles have none and answer `team-member` (teams/rules.ts teamRoleOf).
 */
export const teamMemberModel = defineModel([
  { key: "id", stored: "_id", kind: "objectId" },
  { key: "teamId", kind: "objectId" },
  { key: "userId", kind: "objectId" },
  { key: "createdAt", kind: "date" },
  { key: "role", kind: "string", computed: true },
]);

export type TeamMember = ModelValue<typeof teamMemberModel>;

export const teamMemberSchema: z.ZodType<TeamMember> = z.strictObject(modelShape(teamMemberModel));

/** create's answer: the organization with its one member, the creator. */
export interface CreatedOrganization extends Organization {
  members: Member[];
}

export const createdOrganizationSchema: z.ZodType<CreatedOrganization> = z.strictObject({
  ...organizationShape,
  members: z.array(memberSchema),
});

/**
 * get-full-organization's answer: the organization with its first page of members, its newest
 * invitations and its oldest teams (each list capped at 100).
 */
export interface FullOrganization extends Organization {
  members: MemberWithUser[];
  invitations: Invitation[];
  teams: Team[];
}

export const fullOrganizationSchema: z.ZodType<FullOrganization> = z.strictObject({
  ...organizationShape,
  members: z.array(memberWithUserSchema),
  invitations: z.array(invitationSchema),
  teams: z.array(teamSchema),
});
