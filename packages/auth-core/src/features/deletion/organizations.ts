import type { AuthContext } from "../../context.ts";
import type { MemberDoc, UserDoc } from "../../db/documents.ts";
import type { ObjectId } from "../../db/ids.ts";
import {
  deleteOrganizationCascade,
  deletePendingInvitationsSentBy,
  deleteTeamMembershipsOfUser,
  deleteUserMembers,
  deleteUserMembersWithoutRole,
  dropCreatorRole,
  findOrganizationsWithOtherMembers,
  findOrganizationsWithOtherRoleHolder,
  findUserMemberships,
  holdsRole,
  removeMembership,
  setMemberRole,
} from "../organization/index.ts";
import { type OrganizationRelease, planOrganizationRelease, roleWithout } from "./rules.ts";

/**
 * Deleting a user vs. their organizations (docs/security.md: "Blocked, or ownership transferred;
 * no owner-less org; cascades complete"). We block rather than transfer: choosing a new owner for
 * someone else's organization is a decision for its people, not for the library, and an owner
 * picked by rule (oldest admin?) could hand an organization to someone never meant to run it. So:
 * the only owner of an organization with other members cannot be deleted until they transfer
 * ownership or delete the organization; an organization they are alone in is deleted with them;
 * everywhere else they simply stop being a member.
 *
 * Reads: the user's memberships (1), then — only when they own something — which owned
 * organizations have other members (1 `distinct`) and which of those have another owner (1).
 */
export async function readOrganizationRelease(
  auth: AuthContext,
  user: UserDoc,
): Promise<OrganizationRelease> {
  const creatorRole = auth.options.organization.creatorRole;
  const memberships = await findUserMemberships(auth, user._id);
  const owned = memberships.filter((member) => holdsRole(member.role, creatorRole));
  const withMembers = await findOrganizationsWithOtherMembers(
    auth,
    owned.map((member) => member.organizationId),
    user._id,
  );
  const withOwners = await findOrganizationsWithOtherRoleHolder(auth, withMembers, user._id, creatorRole);
  return planOrganizationRelease(memberships, creatorRole, { withMembers, withOwners });
}

/**
 * Drops the creator role where another owner remains, under the sole-owner guard of leave and
 * remove-member (dropCreatorRole: write, then count the owners left). The plan's count cannot see a
 * co-owner leaving or being deleted at the same moment; the guard can, so two co-owners deleting
 * themselves at once never both pass. When a guard refuses, the roles already dropped are put back
 * and the answer is false: the deletion is refused (SOLE_OWNER_CANNOT_BE_DELETED) with nothing deleted.
 */
export async function releaseOwnerships(auth: AuthContext, demote: readonly MemberDoc[]): Promise<boolean> {
  const creatorRole = auth.options.organization.creatorRole;
  const dropped: MemberDoc[] = [];
  for (const member of demote) {
    if (await dropCreatorRole(auth, member, roleWithout(member.role, creatorRole))) {
      dropped.push(member);
      continue;
    }
    for (const done of dropped) await setMemberRole(auth, done, done.role);
    return false;
  }
  return true;
}

/**
 * Removes the user from every organization (after their sessions, before their user row): the
 * organizations they are alone in with all their rows (the organization's own cascade), then their
 * member rows (seats freed), team memberships and pending invitations they sent in the others.
 * Member rows holding the creator role are not deleted blindly: after the demotions none should
 * remain, but one may have been promoted since the plan was read — and its other owner may have left
 * meanwhile, counting on it. Those go through the sole-owner guard (removeMembership); a refusal
 * stops the deletion there with the user row intact (signed out; they transfer and retry): false,
 * answered SOLE_OWNER_CANNOT_BE_DELETED.
 * Someone who joined an organization after the plan saw the user alone in it goes with it (the
 * organization is deleted whole, never left owner-less). A membership that a request racing the
 * deletion creates after the final read is not seen.
 */
export async function leaveOrganizations(
  auth: AuthContext,
  userId: ObjectId,
  release: OrganizationRelease,
): Promise<boolean> {
  for (const id of release.deleteOrganizations) await deleteOrganizationCascade(auth, id);
  if (release.leave.length === 0) return true;
  await deleteUserMembersWithoutRole(auth, userId, auth.options.organization.creatorRole);
  for (const remaining of await findUserMemberships(auth, userId)) {
    if ((await removeMembership(auth, remaining)) === false) return false;
  }
  await deleteTeamMembershipsOfUser(auth, userId, release.leave);
  // Pending invitations the user sent in these organizations (their slots are freed with them).
  await deletePendingInvitationsSentBy(auth, userId, release.leave);
  return true;
}

/**
 * Every member row and team membership of the user, in any organization: the sweep after the user
 * row is gone, for rows a racing add-member or accept inserted after leaveOrganizations read them.
 */
export async function sweepUserMemberships(auth: AuthContext, userId: ObjectId): Promise<void> {
  // Until none is left: a row a racing add-member inserts after the read is deleted (and its
  // organization bumped) by the next round.
  for (let round = 0; round < 10; round++) {
    if ((await deleteUserMembers(auth, userId)) === 0) break;
  }
  await deleteTeamMembershipsOfUser(auth, userId);
}
