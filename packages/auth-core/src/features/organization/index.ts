import type { AnyEndpoint } from "../../http/define-endpoint.ts";
import { acceptInvitationEndpoint } from "./endpoints/accept-invitation.ts";
import { addMember } from "./endpoints/add-member.ts";
import { cancelInvitation } from "./endpoints/cancel-invitation.ts";
import { checkOrganizationSlug } from "./endpoints/check-slug.ts";
import { createOrganization } from "./endpoints/create.ts";
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
import { listUserInvitations } from "./endpoints/list-user-invitations.ts";
import { rejectInvitation } from "./endpoints/reject-invitation.ts";
import { removeMember } from "./endpoints/remove-member.ts";
import { setActiveOrganization } from "./endpoints/set-active.ts";
import { updateOrganization } from "./endpoints/update.ts";
import { updateMemberRole } from "./endpoints/update-member-role.ts";

export const organizationEndpoints = [
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
] as unknown as AnyEndpoint[];
