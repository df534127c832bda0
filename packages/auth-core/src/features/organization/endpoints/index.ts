import type { AnyEndpoint } from "../../../http/define-endpoint.ts";
import { acceptInvitationEndpoint } from "../invitations/endpoints/accept-invitation.ts";
import { cancelInvitation } from "../invitations/endpoints/cancel-invitation.ts";
import { getInvitation } from "../invitations/endpoints/get-invitation.ts";
import { inviteMember } from "../invitations/endpoints/invite-member.ts";
import { listInvitations } from "../invitations/endpoints/list-invitations.ts";
import { listUserInvitations } from "../invitations/endpoints/list-user-invitations.ts";
import { rejectInvitation } from "../invitations/endpoints/reject-invitation.ts";
import { addMember } from "../members/endpoints/add-member.ts";
import { getActiveMember } from "../members/endpoints/get-active-member.ts";
import { getActiveMemberRole } from "../members/endpoints/get-active-member-role.ts";
import { hasOrganizationPermission } from "../members/endpoints/has-permission.ts";
import { leaveOrganization } from "../members/endpoints/leave.ts";
import { listMembers } from "../members/endpoints/list-members.ts";
import { removeMember } from "../members/endpoints/remove-member.ts";
import { updateMemberRole } from "../members/endpoints/update-member-role.ts";
import { checkOrganizationSlug } from "../organizations/endpoints/check-slug.ts";
import { createOrganization } from "../organizations/endpoints/create.ts";
import { deleteOrganization } from "../organizations/endpoints/delete.ts";
import { getFullOrganization } from "../organizations/endpoints/get-full-organization.ts";
import { listOrganizations } from "../organizations/endpoints/list.ts";
import { setActiveOrganization } from "../organizations/endpoints/set-active.ts";
import { updateOrganization } from "../organizations/endpoints/update.ts";
import { addTeamMember } from "../teams/endpoints/add-team-member.ts";
import { createTeam } from "../teams/endpoints/create-team.ts";
import { listTeamMembersEndpoint } from "../teams/endpoints/list-team-members.ts";
import { listOrganizationTeams } from "../teams/endpoints/list-teams.ts";
import { removeTeam } from "../teams/endpoints/remove-team.ts";
import { removeTeamMember } from "../teams/endpoints/remove-team-member.ts";
import { setActiveTeam } from "../teams/endpoints/set-active-team.ts";
import { updateTeam } from "../teams/endpoints/update-team.ts";

const organizationList = [
  createOrganization,
  checkOrganizationSlug,
  updateOrganization,
  deleteOrganization,
  setActiveOrganization,
  listOrganizations,
  getFullOrganization,
  getActiveMember,
  getActiveMemberRole,
  listMembers,
  addMember,
  removeMember,
  updateMemberRole,
  leaveOrganization,
  hasOrganizationPermission,
  inviteMember,
  acceptInvitationEndpoint,
  rejectInvitation,
  cancelInvitation,
  getInvitation,
  listInvitations,
  listUserInvitations,
  createTeam,
  updateTeam,
  removeTeam,
  listOrganizationTeams,
  setActiveTeam,
  listTeamMembersEndpoint,
  addTeamMember,
  removeTeamMember,
] as const;
export const organizationEndpoints: readonly AnyEndpoint[] = organizationList;
/** The endpoints of this feature, with their types (the keys and signatures of `auth.api`). */
export type OrganizationEndpoint = (typeof organizationList)[number];
