import { z } from "zod";
import { defineContract } from "./contract.ts";
import { idField, pageQueryFields, teamNameField } from "./organization-fields.ts";
import { teamMemberSchema, teamSchema } from "./organization-models.ts";

/**
 * Teams within an organization. Every team endpoint answers 404 NOT_FOUND while
 * `organization.teams.enabled` is off.
 */

/** The answer of the team removals: a sentence, Better Auth's shape. */
export interface TeamMessage {
  message: string;
}

const teamMessageSchema: z.ZodType<TeamMessage> = z.strictObject({ message: z.string() });

/** One team role: `team-admin`, `team-member` or a custom role of `organization.teams.roles`. */
const teamRoleField = z.string().trim().min(1).max(64);

export const createTeamContract = defineContract({
  name: "createTeam",
  method: "POST",
  path: "/organization/create-team",
  auth: "session",
  body: z.strictObject({ name: teamNameField, organizationId: idField.optional() }),
  response: teamSchema,
  errors: [
    "NOT_FOUND",
    "NO_ACTIVE_ORGANIZATION",
    "NOT_A_MEMBER_OF_ORGANIZATION",
    "TEAM_CREATE_NOT_ALLOWED",
    "TEAM_LIMIT_REACHED",
    "ORGANIZATION_NOT_FOUND",
  ],
  summary: "Creates a team in the named or active organization (team:create), within teams.maximumTeams.",
  notes: "Team endpoints need `organization.teams.enabled`.",
  tags: ["organization-teams"],
});

export const updateTeamContract = defineContract({
  name: "updateTeam",
  method: "POST",
  path: "/organization/update-team",
  auth: "session",
  body: z.strictObject({ teamId: idField, data: z.strictObject({ name: teamNameField.optional() }) }),
  response: teamSchema,
  errors: ["NOT_FOUND", "TEAM_NOT_FOUND", "NOT_A_MEMBER_OF_ORGANIZATION", "TEAM_UPDATE_NOT_ALLOWED"],
  summary: "Renames a team (team:update in the team's organization, or a team admin of this team).",
  tags: ["organization-teams"],
});

export const removeTeamContract = defineContract({
  name: "removeTeam",
  method: "POST",
  path: "/organization/remove-team",
  auth: "session",
  body: z.strictObject({ teamId: idField, organizationId: idField.optional() }),
  response: teamMessageSchema,
  errors: [
    "NOT_FOUND",
    "NOT_A_MEMBER_OF_ORGANIZATION",
    "TEAM_NOT_FOUND",
    "TEAM_DELETE_NOT_ALLOWED",
    "TEAM_UPDATE_NOT_ALLOWED",
    "UNABLE_TO_REMOVE_LAST_TEAM",
  ],
  summary:
    "Deletes a team and its memberships (team:delete); the last team stays unless configured otherwise.",
  tags: ["organization-teams"],
});

export const listOrganizationTeamsContract = defineContract({
  name: "listOrganizationTeams",
  method: "GET",
  path: "/organization/list-teams",
  auth: "session",
  query: z.strictObject({
    organizationId: idField.optional(),
    ...pageQueryFields,
  }),
  response: z.array(teamSchema),
  errors: ["NOT_FOUND", "NO_ACTIVE_ORGANIZATION", "NOT_A_MEMBER_OF_ORGANIZATION"],
  summary: "The teams of the named or active organization, oldest first, one page.",
  tags: ["organization-teams"],
});

export const setActiveTeamContract = defineContract({
  name: "setActiveTeam",
  method: "POST",
  path: "/organization/set-active-team",
  auth: "session",
  body: z.strictObject({ teamId: idField.nullable().optional() }),
  response: teamSchema.nullable(),
  errors: [
    "NOT_FOUND",
    "NO_ACTIVE_ORGANIZATION",
    "TEAM_NOT_FOUND",
    "TEAM_NOT_A_MEMBER",
    "SESSION_UPDATE_REFUSED",
  ],
  summary: "Makes a team of the active organization the session's active team; null clears it.",
  tags: ["organization-teams"],
});

export const addTeamMemberContract = defineContract({
  name: "addTeamMember",
  method: "POST",
  path: "/organization/add-team-member",
  auth: "session",
  body: z.strictObject({
    teamId: idField,
    userId: idField,
    organizationId: idField.optional(),
    role: teamRoleField.optional(),
  }),
  response: teamMemberSchema,
  errors: [
    "NOT_FOUND",
    "NOT_A_MEMBER_OF_ORGANIZATION",
    "TEAM_NOT_FOUND",
    "TEAM_UPDATE_NOT_ALLOWED",
    "MEMBER_ROLE_NOT_FOUND",
    "USER_NOT_MEMBER",
    "TEAM_MEMBER_LIMIT_REACHED",
    "TEAM_MEMBER_ALREADY_EXISTS",
  ],
  summary:
    "Adds a member of the team's organization to the team with a team role (default team-member): team:update, or a team admin of this team.",
  tags: ["organization-teams"],
});

export const updateTeamMemberRoleContract = defineContract({
  name: "updateTeamMemberRole",
  method: "POST",
  path: "/organization/update-team-member-role",
  auth: "session",
  body: z.strictObject({
    teamId: idField,
    userId: idField,
    role: teamRoleField,
    organizationId: idField.optional(),
  }),
  response: teamMemberSchema,
  errors: [
    "NOT_FOUND",
    "NOT_A_MEMBER_OF_ORGANIZATION",
    "TEAM_NOT_FOUND",
    "TEAM_UPDATE_NOT_ALLOWED",
    "MEMBER_ROLE_NOT_FOUND",
    "TEAM_MEMBER_NOT_FOUND",
  ],
  summary:
    "Sets a team member's team role: team:update, or a team admin of this team giving a role whose rights they hold.",
  tags: ["organization-teams"],
});

export const removeTeamMemberContract = defineContract({
  name: "removeTeamMember",
  method: "POST",
  path: "/organization/remove-team-member",
  auth: "session",
  body: z.strictObject({ teamId: idField, userId: idField, organizationId: idField.optional() }),
  response: teamMessageSchema,
  errors: [
    "NOT_FOUND",
    "NOT_A_MEMBER_OF_ORGANIZATION",
    "TEAM_NOT_FOUND",
    "TEAM_UPDATE_NOT_ALLOWED",
    "TEAM_MEMBER_NOT_FOUND",
  ],
  summary:
    "Takes a user out of a team (team:update, or a team admin of this team); the team stops being active on their sessions.",
  tags: ["organization-teams"],
});

export const listTeamMembersContract = defineContract({
  name: "listTeamMembers",
  method: "GET",
  path: "/organization/list-team-members",
  auth: "session",
  query: z.strictObject({
    teamId: idField.optional(),
    ...pageQueryFields,
  }),
  response: z.array(teamMemberSchema),
  errors: [
    "NOT_FOUND",
    "TEAM_NO_ACTIVE_TEAM",
    "TEAM_NOT_FOUND",
    "NOT_A_MEMBER_OF_ORGANIZATION",
    "TEAM_NOT_A_MEMBER",
  ],
  summary: "One page of a team's members (default: the active team), for its members and team managers.",
  tags: ["organization-teams"],
});
