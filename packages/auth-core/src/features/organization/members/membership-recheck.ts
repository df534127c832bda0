import type { ObjectId } from "mongodb";
import type { AuthContext } from "../../../context.ts";
import type { MemberDoc, TeamDoc } from "../../../db/documents.ts";
import type { ErrorCode } from "../../../errors/catalogue.ts";
import { deleteUserTeamMemberships, findOrganizationTeams } from "../teams/store.ts";
import { deleteMemberById, findOrganizationById, findUserById } from "./store.ts";

/**
 * After a membership insert (add-member, accept-invitation): reads again what the new rows point
 * at. Each deletion removes its own row before the rows pointing at it (organization → members →
 * team memberships; remove-team → team → memberships; user deletion → memberships → user → a last
 * sweep of memberships), so a row inserted after its cascade read them is caught here. When
 * something is gone, the member row and its team memberships are taken back and the error to answer
 * is returned; null when all is still there.
 */
export async function takeBackMembershipIfOrphaned(
  auth: AuthContext,
  member: MemberDoc,
  teams: readonly TeamDoc[],
): Promise<ErrorCode | null> {
  const gone = await findWhatWentMeanwhile(auth, member.organizationId, member.userId, teams);
  if (gone) {
    await deleteMemberById(auth.collections, member._id);
    await deleteUserTeamMemberships(auth.collections, member.organizationId, member.userId);
  }
  return gone;
}

async function findWhatWentMeanwhile(
  auth: AuthContext,
  organizationId: ObjectId,
  userId: ObjectId,
  teams: readonly TeamDoc[],
): Promise<"ORGANIZATION_NOT_FOUND" | "MEMBER_USER_NOT_FOUND" | "TEAM_NOT_FOUND" | null> {
  const { collections } = auth;
  if (!(await findOrganizationById(collections, organizationId))) return "ORGANIZATION_NOT_FOUND";
  if (!(await findUserById(collections, userId))) return "MEMBER_USER_NOT_FOUND";
  if (teams.length === 0) return null;
  const ids = teams.map((team) => team._id);
  const left = await findOrganizationTeams(collections, organizationId, ids);
  return left.length === teams.length ? null : "TEAM_NOT_FOUND";
}
