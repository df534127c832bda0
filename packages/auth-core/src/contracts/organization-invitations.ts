import { z } from "zod";
import { defineContract } from "./contract.ts";
import { idField, pageQueryFields, roleField, teamIdsField } from "./organization-fields.ts";
import {
  type Invitation,
  invitationDetailsSchema,
  invitationSchema,
  invitationShape,
  listedInvitationSchema,
  type Member,
  memberSchema,
  userInvitationSchema,
} from "./organization-models.ts";
import { emailField } from "./schemas.ts";

/** Invitations: sending, answering (accept, reject), canceling and listing them. */

/**
 * create-invitation's answer: Better Auth's invitation, and `emailSent` — false when the mail limit
 * (docs/security.md "Mail flooding") held the mail back, so the inviter knows to tell the invitee
 * another way or resend later; true when the mail, or the app's `sendInvitationEmail`, went out.
 */
export interface CreatedInvitation extends Invitation {
  emailSent: boolean;
}

const createdInvitationSchema: z.ZodType<CreatedInvitation> = z.strictObject({
  ...invitationShape,
  emailSent: z.boolean(),
});

export const createInvitationContract = defineContract({
  name: "createInvitation",
  method: "POST",
  path: "/organization/invite-member",
  auth: "session",
  body: z.strictObject({
    email: emailField,
    role: roleField,
    organizationId: idField.optional(),
    // Re-arms a pending invitation of the address instead of refusing a second one.
    resend: z.boolean().optional(),
    teamId: teamIdsField.optional(),
  }),
  response: createdInvitationSchema,
  errors: [
    "INVALID_EMAIL",
    "NO_ACTIVE_ORGANIZATION",
    "NOT_A_MEMBER_OF_ORGANIZATION",
    "INVITATION_CREATE_NOT_ALLOWED",
    "MEMBER_ROLE_NOT_FOUND",
    "INVITATION_ROLE_NOT_ALLOWED",
    "TEAM_NOT_FOUND",
    "MEMBER_ALREADY_EXISTS",
    "INVITATION_ALREADY_PENDING",
    "INVITATION_LIMIT_REACHED",
    "ORGANIZATION_NOT_FOUND",
  ],
  summary:
    "Invites an email address to the organization with roles the inviter could grant, and mails the link.",
  notes: "Answers the invitation and `emailSent` (false when the mail limit held the mail back).",
  tags: ["organization-invitations"],
});

/** accept-invitation's answer: the accepted invitation and the new member row. */
export interface AcceptedInvitation {
  invitation: Invitation;
  member: Member;
}

const acceptedInvitationSchema: z.ZodType<AcceptedInvitation> = z.strictObject({
  invitation: invitationSchema,
  member: memberSchema,
});

export const acceptInvitationContract = defineContract({
  name: "acceptInvitation",
  method: "POST",
  path: "/organization/accept-invitation",
  auth: "session",
  body: z.strictObject({ invitationId: idField }),
  response: acceptedInvitationSchema,
  errors: [
    "INVITATION_NOT_FOUND",
    "NOT_INVITATION_RECIPIENT",
    "INVITATION_EMAIL_NOT_VERIFIED",
    "INVITER_NO_LONGER_MEMBER",
    "MEMBERSHIP_LIMIT_REACHED",
    "MEMBER_ALREADY_EXISTS",
    "TEAM_MEMBER_LIMIT_REACHED",
    "ORGANIZATION_NOT_FOUND",
    "MEMBER_USER_NOT_FOUND",
    "TEAM_NOT_FOUND",
  ],
  summary: "Joins the organization of an invitation to the caller and makes it the active one.",
  tags: ["organization-invitations"],
});

/** reject-invitation's answer: Better Auth's shape, with no member. */
export interface RejectedInvitation {
  invitation: Invitation;
  member: null;
}

const rejectedInvitationSchema: z.ZodType<RejectedInvitation> = z.strictObject({
  invitation: invitationSchema,
  member: z.null(),
});

export const rejectInvitationContract = defineContract({
  name: "rejectInvitation",
  method: "POST",
  path: "/organization/reject-invitation",
  auth: "session",
  body: z.strictObject({ invitationId: idField }),
  response: rejectedInvitationSchema,
  errors: [
    "INVITATION_NOT_FOUND",
    "NOT_INVITATION_RECIPIENT",
    "INVITATION_EMAIL_NOT_VERIFIED",
    "INVITER_NO_LONGER_MEMBER",
  ],
  summary: "Declines a pending invitation to the caller.",
  tags: ["organization-invitations"],
});

export const cancelInvitationContract = defineContract({
  name: "cancelInvitation",
  method: "POST",
  path: "/organization/cancel-invitation",
  auth: "session",
  body: z.strictObject({ invitationId: idField }),
  response: invitationSchema,
  errors: ["INVITATION_NOT_FOUND", "INVITATION_CANCEL_NOT_ALLOWED"],
  summary: "Withdraws a pending invitation of the caller's organization (invitation:cancel).",
  tags: ["organization-invitations"],
});

export const getInvitationContract = defineContract({
  name: "getInvitation",
  method: "GET",
  path: "/organization/get-invitation",
  auth: "session",
  query: z.strictObject({ id: idField }),
  response: invitationDetailsSchema,
  errors: [
    "INVITATION_NOT_FOUND",
    "NOT_INVITATION_RECIPIENT",
    "INVITATION_EMAIL_NOT_VERIFIED",
    "FAILED_TO_RETRIEVE_INVITATION",
    "INVITER_NO_LONGER_MEMBER",
  ],
  summary:
    "A pending invitation to the caller, with the organization's name and slug and the inviter's email.",
  tags: ["organization-invitations"],
});

export const listInvitationsContract = defineContract({
  name: "listInvitations",
  method: "GET",
  path: "/organization/list-invitations",
  auth: "session",
  query: z.strictObject({
    organizationId: idField.optional(),
    ...pageQueryFields,
  }),
  response: z.array(listedInvitationSchema),
  errors: ["NO_ACTIVE_ORGANIZATION", "NOT_A_MEMBER_OF_ORGANIZATION"],
  summary:
    "The organization's invitations of every status, newest first, one page, each with the state of its mail (queued, sent, failed, dropped).",
  tags: ["organization-invitations"],
});

export const listUserInvitationsContract = defineContract({
  name: "listUserInvitations",
  method: "GET",
  path: "/organization/list-user-invitations",
  // Server code may name any address with `email` and needs no session; over HTTP one is required.
  auth: "optional",
  httpCredentials: ["session"],
  query: z.strictObject({ email: emailField.optional() }),
  response: z.array(userInvitationSchema),
  errors: ["UNAUTHORIZED", "INVITATION_EMAIL_NOT_VERIFIED"],
  summary: "The caller's pending, unexpired invitations (at most 100), each with its organization's name.",
  notes: "The caller's invitations; server code may pass `email`.",
  tags: ["organization-invitations"],
});
