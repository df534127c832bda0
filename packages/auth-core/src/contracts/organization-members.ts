import { z } from "zod";
import { defineContract } from "./contract.ts";
import { idField, pageQueryFields, roleField, slugField, teamIdsField } from "./organization-fields.ts";
import {
  type Member,
  type MemberWithUser,
  memberSchema,
  memberWithUserSchema,
} from "./organization-models.ts";

/** Membership of an organization: adding, removing, roles, listing, leaving. */

export const addMemberContract = defineContract({
  name: "addMember",
  method: "POST",
  path: "/organization/add-member",
  // The app's own code decides who may add (docs/decisions/): no permission check, so no HTTP route.
  auth: "server-only",
  body: z.strictObject({
    userId: idField,
    role: roleField,
    organizationId: idField.optional(),
    teamId: teamIdsField.optional(),
  }),
  response: memberSchema,
  errors: [
    "NO_ACTIVE_ORGANIZATION",
    "NOT_A_MEMBER_OF_ORGANIZATION",
    "ORGANIZATION_NOT_FOUND",
    "MEMBER_USER_NOT_FOUND",
    "MEMBER_ROLE_NOT_FOUND",
    "TEAM_NOT_FOUND",
    "MEMBERSHIP_LIMIT_REACHED",
    "MEMBER_ALREADY_EXISTS",
    "TEAM_MEMBER_LIMIT_REACHED",
  ],
  summary: "Server only: makes a user a member with the given roles (and teams), within the limits.",
  tags: ["organization-members"],
});

/** remove-member's answer. */
export interface RemovedMember {
  member: Member;
}

const removedMemberSchema: z.ZodType<RemovedMember> = z.strictObject({ member: memberSchema });

export const removeMemberContract = defineContract({
  name: "removeMember",
  method: "POST",
  path: "/organization/remove-member",
  auth: "session",
  // A member id, or an email when the value contains an at sign.
  body: z.strictObject({ memberIdOrEmail: z.string().min(1).max(320), organizationId: idField.optional() }),
  response: removedMemberSchema,
  errors: [
    "NO_ACTIVE_ORGANIZATION",
    "NOT_A_MEMBER_OF_ORGANIZATION",
    "MEMBER_DELETE_NOT_ALLOWED",
    "MEMBER_NOT_FOUND",
    "CANNOT_LEAVE_AS_ONLY_OWNER",
  ],
  summary: "Removes a member (by member id or email) from the named or active organization.",
  tags: ["organization-members"],
});

export const updateMemberRoleContract = defineContract({
  name: "updateMemberRole",
  method: "POST",
  path: "/organization/update-member-role",
  auth: "session",
  body: z.strictObject({ memberId: idField, role: roleField, organizationId: idField.optional() }),
  response: memberSchema,
  errors: [
    "NO_ACTIVE_ORGANIZATION",
    "NOT_A_MEMBER_OF_ORGANIZATION",
    "MEMBER_UPDATE_NOT_ALLOWED",
    "MEMBER_ROLE_NOT_FOUND",
    "MEMBER_NOT_FOUND",
    "CANNOT_LEAVE_AS_ONLY_OWNER",
  ],
  summary: "Sets a member's roles, only to roles the caller could grant; the sole owner stays an owner.",
  tags: ["organization-members"],
});

export const getActiveMemberContract = defineContract({
  name: "getActiveMember",
  method: "GET",
  path: "/organization/get-active-member",
  auth: "session",
  response: memberWithUserSchema,
  // NOT_A_MEMBER_OF_ORGANIZATION: the x-tessera-organization header named an organization the caller is not in.
  errors: ["NO_ACTIVE_ORGANIZATION", "MEMBER_NOT_FOUND", "NOT_A_MEMBER_OF_ORGANIZATION"],
  summary:
    "The caller's member row in the request's active organization, with the caller's public user fields.",
  tags: ["organization-members"],
});

/** get-active-member-role's answer. */
export interface MemberRole {
  /** One role or a comma separated list. */
  role: string;
}

const memberRoleSchema: z.ZodType<MemberRole> = z.strictObject({ role: z.string() });

export const getActiveMemberRoleContract = defineContract({
  name: "getActiveMemberRole",
  method: "GET",
  path: "/organization/get-active-member-role",
  auth: "session",
  query: z.strictObject({
    userId: idField.optional(),
    organizationId: idField.optional(),
    organizationSlug: slugField.optional(),
  }),
  response: memberRoleSchema,
  errors: ["NO_ACTIVE_ORGANIZATION", "NOT_A_MEMBER_OF_ORGANIZATION", "USER_NOT_MEMBER"],
  summary: "The caller's role (or, with userId, a fellow member's) in the named or active organization.",
  tags: ["organization-members"],
});

/** list-members' answer: one page and the organization's member count. */
export interface MemberPage {
  members: MemberWithUser[];
  total: number;
}

const memberPageSchema: z.ZodType<MemberPage> = z.strictObject({
  members: z.array(memberWithUserSchema),
  total: z.number().int(),
});

export const listMembersContract = defineContract({
  name: "listMembers",
  method: "GET",
  path: "/organization/list-members",
  auth: "session",
  query: z.strictObject({
    ...pageQueryFields,
    sortBy: z.enum(["createdAt", "role"]).optional(),
    sortDirection: z.enum(["asc", "desc"]).optional(),
    organizationId: idField.optional(),
    organizationSlug: slugField.optional(),
  }),
  response: memberPageSchema,
  errors: ["NO_ACTIVE_ORGANIZATION", "NOT_A_MEMBER_OF_ORGANIZATION"],
  summary: "One page of the organization's members with their users, and the total count.",
  tags: ["organization-members"],
});

export const leaveOrganizationContract = defineContract({
  name: "leaveOrganization",
  method: "POST",
  path: "/organization/leave",
  auth: "session",
  // Not idField: a missing or empty id answers ORGANIZATION_ID_REQUIRED, checked by the handler.
  body: z.strictObject({ organizationId: z.string().max(64).optional() }),
  response: memberSchema,
  errors: ["ORGANIZATION_ID_REQUIRED", "NOT_A_MEMBER_OF_ORGANIZATION", "CANNOT_LEAVE_AS_ONLY_OWNER"],
  summary: "Ends the caller's membership (not the sole owner's); answers the member row removed.",
  tags: ["organization-members"],
});
