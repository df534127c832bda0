import { getFullOrganizationContract } from "../../../../contracts/organization.ts";
import { PAGE_MAX } from "../../../../contracts/organization-fields.ts";
import type { FullOrganization } from "../../../../contracts/organization-models.ts";
import { defineEndpoint } from "../../../../http/define-endpoint.ts";
import {
  requireCaller,
  requireMembership,
  requireOrganization,
  resolveOrganizationRef,
} from "../../endpoints/guards.ts";
import { listInvitationsOf } from "../../invitations/service.ts";
import { toInvitation } from "../../invitations/types.ts";
import { listMembersPage, withUsers } from "../../members/service.ts";
import { listTeams } from "../../teams/service.ts";
import { toTeam } from "../../teams/types.ts";
import { toOrganization } from "../types.ts";

export type { FullOrganization };

/**
 * The organization with its first page of members (`membersLimit`, at most 100), its 100 newest
 * invitations and its 100 oldest teams: a fixed number of indexed reads however large the
 * organization. Each list is capped, never paged here: list-members, list-invitations and
 * list-teams page further (`limit`, `offset`). Null when no organization is named and none is active.
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
    await requireMembership(auth, ref.id, caller.user._id);
    const organization = ref.organization ?? (await requireOrganization(auth, ref.id));
    const limit = Math.min(query.membersLimit ?? auth.options.organization.membershipLimit, PAGE_MAX);
    const page = await listMembersPage(auth, ref.id, {
      limit,
      offset: 0,
      sortBy: "createdAt",
      sortDirection: "asc",
    });
    const members = await withUsers(auth, page);
    const invitations = await listInvitationsOf(auth, ref.id, PAGE_MAX);
    const teams = auth.options.organization.teams.enabled ? await listTeams(auth, ref.id, PAGE_MAX) : [];
    return {
      ...toOrganization(organization),
      members,
      invitations: invitations.map(toInvitation),
      teams: teams.map(toTeam),
    };
  },
});
