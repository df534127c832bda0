import type { ObjectId } from "mongodb";
import { z } from "zod";
import type { AuthContext } from "../../../context.ts";
import type { TeamDoc } from "../../../db/documents.ts";
import { parseId } from "../../../db/ids.ts";
import { AuthError } from "../../../errors/auth-error.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { findUnknownRoles } from "../rules.ts";
import { idField, roleField, teamIdsField } from "../schemas.ts";
import { addMemberWithinLimit, requireOrganization, resolveOrganizationId, roleTableOf } from "../service.ts";
import { deleteMemberById, findOrganizationById, findUserById } from "../store.ts";
import { joinTeams, requireOrganizationTeams } from "../team-service.ts";
import { deleteUserTeamMemberships, findOrganizationTeams } from "../team-store.ts";
import { type Member, toMember } from "../types.ts";

/**
 * DECISIONS.md: server-only (auth.api.addMember and the CLI) — the app's own code decides who may
 * add; no permission check here. The membership and team limits still hold. What the new rows point
 * at is read again after them: an organization, team or user deleted meanwhile (its cascade may have
 * run before our inserts) → the member and its team memberships are taken back.
 */
export const addMember = defineEndpoint({
  name: "addMember",
  method: "POST",
  path: "/organization/add-member",
  auth: "server-only",
  body: z.strictObject({
    userId: idField,
    role: roleField,
    organizationId: idField.optional(),
    teamId: teamIdsField.optional(),
  }),
  async handler(ctx): Promise<Member> {
    const { auth, body } = ctx;
    const organizationId = resolveOrganizationId(ctx.session?.session ?? null, body.organizationId);
    await requireOrganization(auth, organizationId);
    const userId = parseId(body.userId);
    const user = userId ? await findUserById(auth.collections, userId) : null;
    if (!user) throw new AuthError("MEMBER_USER_NOT_FOUND");
    if (findUnknownRoles(body.role, roleTableOf(auth)).length > 0)
      throw new AuthError("MEMBER_ROLE_NOT_FOUND");
    const teams = await requireOrganizationTeams(auth, organizationId, body.teamId ?? []);
    const added = await addMemberWithinLimit(auth, {
      organizationId,
      userId: user._id,
      role: body.role.join(","),
      teamId: teams[0]?._id ?? null,
    });
    if (!added.ok)
      throw new AuthError(added.reason === "limit" ? "MEMBERSHIP_LIMIT_REACHED" : "MEMBER_ALREADY_EXISTS");
    if (!(await joinTeams(auth, teams, user._id))) {
      await deleteMemberById(auth.collections, added.value._id);
      throw new AuthError("TEAM_MEMBER_LIMIT_REACHED");
    }
    const gone = await findWhatWentMeanwhile(auth, organizationId, user._id, teams);
    if (gone) {
      await deleteMemberById(auth.collections, added.value._id);
      await deleteUserTeamMemberships(auth.collections, organizationId, user._id);
      throw new AuthError(gone);
    }
    return toMember(added.value);
  },
});

/**
 * Each deletion removes its own row before the rows pointing at it (organization → members → team
 * memberships; remove-team → team → memberships; user deletion → memberships → user → a last sweep
 * of memberships), so a row inserted after its cascade read them is caught by reading that row now.
 */
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
  const left = await findOrganizationTeams(
    collections,
    organizationId,
    teams.map((team) => team._id),
  );
  return left.length === teams.length ? null : "TEAM_NOT_FOUND";
}
