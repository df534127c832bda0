import { getFullOrganizationContract } from "../../../../contracts/organization.ts";
import { PAGE_MAX } from "../../../../contracts/organization-fields.ts";
import type { FullOrganization } from "../../../../contracts/organization-models.ts";
import { BsonJsonWriter } from "../../../../db/bson-json.ts";
import type { OrganizationDoc, TeamDoc } from "../../../../db/documents.ts";
import {
  heldOrganizationListing,
  holdOrganizationListing,
  type OrganizationListing,
} from "../../../../db/listing-cache.ts";
import { AuthError } from "../../../../errors/auth-error.ts";
import { defineEndpoint } from "../../../../http/define-endpoint.ts";
import { serializedJson } from "../../../../http/endpoint-outcome.ts";
import { readRequestActive, resolveOrganizationRef } from "../../endpoints/guards.ts";
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
 * The organization is read first: its listing version says whether the members with their users
 * and the invitations this process answered last are still what the database holds
 * (db/listing-cache.ts, db/listing-version.ts). Then the caller's membership (always from the
 * database) and the teams are read, and the lists only when the listing is not held. Otherwise the
 * lists are read together (one round trip's wait instead of three), and the members page doubles as
 * the membership check when it holds the caller or the whole organization. The users of the page
 * are read only once the caller is known to be a member. Refusals keep their order: not a member
 * first, then a missing organization.
 */
export const getFullOrganization = defineEndpoint(getFullOrganizationContract, {
  async handler(ctx): Promise<FullOrganization | null> {
    const { auth, query } = ctx;
    const active = await readRequestActive(ctx);
    const { caller } = active;
    if (query.organizationId === undefined && query.organizationSlug === undefined && !active.organizationId)
      return null;
    const ref = await resolveOrganizationRef(ctx, query, active);
    const limit = Math.min(query.membersLimit ?? auth.options.organization.membershipLimit, PAGE_MAX);
    const userId = caller.user._id;
    const teamsOf = () =>
      auth.options.organization.teams.enabled ? listTeams(auth, ref.id, PAGE_MAX) : Promise.resolve([]);
    const organization = ref.organization ?? (await findOrganization(auth, ref.id));
    const version = organization?.listingVersion ?? 0;
    const cache = auth.organizationListings;
    const held = organization && cache && heldOrganizationListing(cache, ref.id, limit, version);
    if (organization && held) {
      const [member, teams] = await Promise.all([findMember(auth, ref.id, userId), teamsOf()]);
      if (!member) throw new AuthError("NOT_A_MEMBER_OF_ORGANIZATION");
      return answer(organization, held, teams);
    }
    const [page, invitations, teams] = await Promise.all([
      listMembersRawPage(auth, ref.id, { limit, offset: 0, sortBy: "createdAt", sortDirection: "asc" }),
      listInvitationsRawOf(auth, ref.id, PAGE_MAX),
      teamsOf(),
    ]);
    const userIds = userIdsOf(page);
    const listsCaller = userIds.some((id) => id.equals(userId));
    if (!listsCaller && (page.length < limit || !(await findMember(auth, ref.id, userId))))
      throw new AuthError("NOT_A_MEMBER_OF_ORGANIZATION");
    if (!organization) throw new AuthError("ORGANIZATION_NOT_FOUND");
    const members = await pairMembersRaw(auth, page, userIds);
    // The JSON text of the lists, written from the documents' bytes without decoding them
    // (members/types.ts writeMembersWithUsersJson).
    const out = new BsonJsonWriter(
      2 * (page.bytes.length + members.users.bytes.length + invitations.bytes.length) + 64,
    );
    out.text('"members":');
    writeMembersWithUsersJson(out, members);
    out.text(',"invitations":');
    writeInvitationsJson(out, invitations);
    const read = { limit, members, invitations, text: out.toString() };
    const listing = cache ? holdOrganizationListing(cache, ref.id, version, read) : read;
    return answer(organization, listing, teams);
  },
});

/** The answer's JSON text (the organization's own fields end where its object closes), and build(). */
function answer(
  organization: OrganizationDoc,
  listing: Pick<OrganizationListing, "members" | "invitations" | "text">,
  teams: TeamDoc[],
): FullOrganization {
  const head = JSON.stringify(toOrganization(organization)).slice(0, -1);
  const build = (): FullOrganization => ({
    ...toOrganization(organization),
    members: toMembersWithUsers(listing.members),
    invitations: listing.invitations.decodeAll().map(toInvitation),
    teams: teams.map(toTeam),
  });
  return serializedJson(
    `${head},${listing.text},"teams":${JSON.stringify(teams.map(toTeam))}}`,
    build,
    undefined,
  );
}
