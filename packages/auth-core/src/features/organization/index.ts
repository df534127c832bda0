/*
 * The face of the organization feature: all that other features may use. Inside, four domains of
 * the same shape (endpoints/, service.ts, rules.ts, store.ts, types.ts): organizations, members,
 * invitations and teams. Endpoints call services; a service uses its own store and the services of
 * the domains below it (teams ← members ← invitations ← organizations), never the other way round.
 */
export type {
  FullOrganization,
  Invitation,
  InvitationDetails,
  Member,
  MemberUser,
  MemberWithUser,
  Organization,
  Team,
  TeamMember,
} from "../../contracts/organization-models.ts";
/** Other features' organization endpoints (features/sso-domains) start with the same checks. */
export {
  assertPermission,
  requireCaller,
  requireMembership,
  resolveOrganizationId,
} from "./endpoints/guards.ts";
/** An operator's bulk invitations (operator.ts): the invite endpoint's own path. */
export {
  findInviteRefusal,
  type InviteRefusal,
  inviteToOrganization,
} from "./invitations/invite.ts";
/**
 * For `auth.cleanup()` (invitation answers a crash cut after their claim, stale invitations) and
 * user deletion (the invitations the user sent).
 */
export {
  countPendingInvitationsOf,
  deletePendingInvitationsSentBy,
  deleteStaleInvitations,
  finishInterruptedInvitationClaims,
} from "./invitations/service.ts";
/** The user's data export (features/user-export) reads the user's organization rows through these. */
export { findInvitationsSentBy, findInvitationsToEmail, invitationEventSource } from "./invitations/store.ts";
export { toInvitation } from "./invitations/types.ts";
/** User deletion (features/deletion) releases the user's organizations through these. */
export { findUnknownRoles, hasPermission, holdsRole, parseRoles } from "./members/rules.ts";
export {
  addMemberWithinLimit,
  clearMembersTeam,
  countMembers,
  deleteUserMembers,
  deleteUserMembersWithoutRole,
  dropCreatorRole,
  findMember,
  findOrganizationsWithOtherMembers,
  findOrganizationsWithOtherRoleHolder,
  findUser,
  findUserMemberships,
  listAllMembers,
  listAllMembersWithUsers,
  removeMembership,
  roleTableOf,
  setMemberRole,
} from "./members/service.ts";
/** createAuth hands it to the users store: a user's shown fields changed (context.ts). */
export { bumpListingsOfMemberUser, memberEventSource } from "./members/store.ts";
/** An operator's import and repair (operator-import.ts): rows written and removed through the owners. */
export {
  deleteOrphanRows,
  type ImportedOrganizationRows,
  importOrganizationRows,
  type OrphanRows,
  readOrganizationRows,
} from "./operator-rows.ts";
export {
  deleteOrganizationCascade,
  findOrganization,
  findOrganizationBySlug,
  finishInterruptedOrganizationDeletions,
  listOrganizationsPage,
} from "./organizations/service.ts";
export { findOrganizationsByIds, organizationEventSource } from "./organizations/store.ts";
/** SCIM groups (features/scim/groups) make, rename and remove their teams and memberships through these. */
export { TEAM_MEMBER_ROLE } from "./teams/rules.ts";
export {
  addTeamMemberWithinLimit,
  createTeamWithinLimit,
  deleteTeam,
  deleteTeamMembershipsOfUser,
  findOrganizationTeams,
  findTeamByIdOrName,
  forgetActiveTeam,
  listTeamMembers,
  listTeams,
  removeTeamUnlessLast,
  renameTeam,
  setTeamMemberRole,
  takeUserOutOfTeam,
  teamRoleTablesOf,
} from "./teams/service.ts";
export { findUserTeamMemberships, teamEventSource, teamMemberEventSource } from "./teams/store.ts";
/** `tessera orgs teams` (operator-teams.ts) answers teams and memberships as the endpoints do. */
export { toTeam, toTeamMember } from "./teams/types.ts";
