import { listMembersContract, type MemberPage } from "../../../../contracts/organization-members.ts";
import { defineEndpoint } from "../../../../http/define-endpoint.ts";
import { serializedJson } from "../../../../http/endpoint-outcome.ts";
import { jsonArray } from "../../../../http/json-text.ts";
import { requireCaller, requireMembership, resolveOrganizationRef } from "../../endpoints/guards.ts";
import { countMembers, listMembersPage, pairWithUsers } from "../service.ts";
import { memberWithUserJson, toMemberWithUser } from "../types.ts";

/**
 * One page of members (`limit` ≤ 100, default 100; `offset`; sorted by createdAt or role) and the
 * total. docs/decisions/: the membership limit limits membership, not pages — 10,000 members list fine.
 *
 * The page and the total are read together, and the page doubles as the membership check when it
 * lists the caller (as in get-full-organization.ts): otherwise the caller's member row is read. The
 * users of the page are read only once the caller is known to be a member.
 */
export const listMembers = defineEndpoint(listMembersContract, {
  async handler(ctx): Promise<MemberPage> {
    const { auth, query } = ctx;
    const caller = requireCaller(ctx.session);
    const ref = await resolveOrganizationRef(ctx, query);
    const [page, total] = await Promise.all([
      listMembersPage(auth, ref.id, {
        limit: query.limit,
        offset: query.offset,
        sortBy: query.sortBy ?? "createdAt",
        sortDirection: query.sortDirection ?? "asc",
      }),
      countMembers(auth, ref.id),
    ]);
    const userId = caller.user._id;
    if (!page.some((member) => member.userId.equals(userId))) await requireMembership(auth, ref.id, userId);
    const members = await pairWithUsers(auth, page);
    // get-full-organization.ts says why the JSON text is written directly.
    return serializedJson(
      `{"members":${jsonArray(members, memberWithUserJson)},"total":${JSON.stringify(total)}}`,
      () => ({
        members: members.map(toMemberWithUser),
        total,
      }),
      undefined,
    );
  },
});
