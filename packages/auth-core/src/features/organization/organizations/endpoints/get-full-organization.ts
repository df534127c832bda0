import { getFullOrganizationContract } from "../../../../contracts/organization.ts";
import { PAGE_MAX } from "../../../../contracts/organization-fields.ts";
import type { FullOrganization } from "../../../../contracts/organization-models.ts";
import { BsonJsonWriter } from "../../../../db/bson-json.ts";
import { AuthError } from "../../../../errors/auth-error.ts";
import { defineEndpoint } from "../../../../http/define-endpoint.ts";
import { serializedJson } from "../../../../http/run-endpoint.ts";
import { requireCaller, resolveOrganizationRef } from "../../endpoints/guards.ts";
import { listInvitationsRawOf } from "../../invitations/service.ts";
import { toInvitation, writeInvitationsJson } from "../../invitations/types.ts";
import { findMember, listMembersRawPage, pairMembersRaw, userIdsOf } from "../../members/service.ts";
import { toMembersWithUsers, writeMembersWithUsersJson } from "../../members/types.ts";
import { listTeams } from "../../teams/service.ts";
import { toTeam } from "../../teams/types.ts";
import { findOrganization } from "../service.ts";
import { toOrganization } from "../types.ts";

export type { FullOrganization };

/**
 * The organization with its first page of members (`membersLimit`, at most 100), its 100 newest
 * invitations and its 100 oldest teams: a fixed number of indexed reads however large the
 * organization. Each list is capped, never paged here: list-members, list-invitations and
 * list-teams page further (`limit`, `offset`). Null when no organization is named and none is active.
 *
 * The four lists and the organization are read together (one round trip's wait instead of four),
 * and the members page doubles as the membership check when it holds the caller or the whole
 * organization: a 100-member organization costs five reads, not six. The users of the page are
 * read only once the caller is known to be a member. Refusals keep their order: not a member
 * first, then a missing organization.
 */
export const getFullOrganization = defineEndpoint(getFullOrganizationContract, {
  async handler(ctx): Promise<FullOrganization | null> {
    const { auth, query } = ctx;
    const caller = requireCaller(ctx.session);
    if (
      query.organizationId === undefined &&
      query.organizationSlug === undefined &&
      !caller.session.activeOrganizationId
    )
      return null;
    const ref = await resolveOrganizationRef(auth, caller.session, query);
    const limit = Math.min(query.membersLimit ?? auth.options.organization.membershipLimit, PAGE_MAX);
    const [page, organization, invitations, teams] = await Promise.all([
      listMembersRawPage(auth, ref.id, { limit, offset: 0, sortBy: "createdAt", sortDirection: "asc" }),
      ref.organization ?? findOrganization(auth, ref.id),
      listInvitationsRawOf(auth, ref.id, PAGE_MAX),
      auth.options.organization.teams.enabled ? listTeams(auth, ref.id, PAGE_MAX) : [],
    ]);
    const userId = caller.user._id;
    const userIds = userIdsOf(page);
    const listsCaller = userIds.some((id) => id.equals(userId));
    if (!listsCaller && (page.length < limit || !(await findMember(auth, ref.id, userId))))
      throw new AuthError("NOT_A_MEMBER_OF_ORGANIZATION");
    if (!organization) throw new AuthError("ORGANIZATION_NOT_FOUND");
    const members = await pairMembersRaw(auth, page, userIds);
    const build = (): FullOrganization => ({
      ...toOrganization(organization),
      members: toMembersWithUsers(members),
      invitations: invitations.decodeAll().map(toInvitation),
      teams: teams.map(toTeam),
    });
    // The JSON text of build(), written from the documents' bytes without decoding them
    // (members/types.ts writeMembersWithUsersJson): the organization's own fields end where its
    // object closes.
    const head = JSON.stringify(toOrganization(organization)).slice(0, -1);
    const out = new BsonJsonWriter(
      2 * (page.bytes.length + members.users.bytes.length + invitations.bytes.length) + 1024,
    );
    out.text(`${head},"members":`);
    writeMembersWithUsersJson(out, members);
    out.text(',"invitations":');
    writeInvitationsJson(out, invitations);
    out.text(`,"teams":${JSON.stringify(teams.map(toTeam))}}`);
    return serializedJson(out.toString(), build, undefined);
  },
});
