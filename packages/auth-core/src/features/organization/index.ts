import type { AnyEndpoint } from "../../http/define-endpoint.ts";
import { acceptInvitationEndpoint } from "./endpoints/accept-invitation.ts";
import { addMember } from "./endpoints/add-member.ts";
import { addTeamMember } from "./endpoints/add-team-member.ts";
import { cancelInvitation } from "./endpoints/cancel-invitation.ts";
import { checkOrganizationSlug } from "./endpoints/check-slug.ts";
import { createOrganization } from "./endpoints/create.ts";
import { createTeam } from "./endpoints/create-team.ts";
import { deleteOrganization } from "./endpoints/delete.ts";
import { getActiveMember } from "./endpoints/get-active-member.ts";
import { getActiveMemberRole } from "./endpoints/get-active-member-role.ts";
import { getFullOrganization } from "./endpoints/get-full-organization.ts";
import { getInvitation } from "./endpoints/get-invitation.ts";
import { hasOrganizationPermission } from "./endpoints/has-permission.ts";
import { inviteMember } from "./endpoints/invite-member.ts";
import { leaveOrganization } from "./endpoints/leave.ts";
import { listOrganizations } from "./endpoints/list.ts";
import { listInvitations } from "./endpoints/list-invitations.ts";
import { listMembers } from "./endpoints/list-members.ts";
import { listTeamMembersEndpoint } from "./endpoints/list-team-members.ts";
import { listOrganizationTeams } from "./endpoints/list-teams.ts";
import { listUserInvitations } from "./endpoints/list-user-invitations.ts";
import { rejectInvitation } from "./endpoints/reject-invitation.ts";
import { removeMember } from "./endpoints/remove-member.ts";
import { removeTeam } from "./endpoints/remove-team.ts";
import { removeTeamMember } from "./endpoints/remove-team-member.ts";
import { setActiveOrganization } from "./endpoints/set-active.ts";
import { setActiveTeam } from "./endpoints/set-active-team.ts";
import { updateOrganization } from "./endpoints/update.ts";
import { updateMemberRole } from "./endpoints/update-member-role.ts";
import { updateTeam } from "./endpoints/update-team.ts";

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
