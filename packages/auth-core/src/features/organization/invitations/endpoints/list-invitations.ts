import { listInvitationsContract } from "../../../../contracts/organization-invitations.ts";
import { defineEndpoint } from "../../../../http/define-endpoint.ts";
import { requireCaller, requireMembership, resolveOrganizationId } from "../../members/service.ts";
import { type Invitation, toInvitation } from "../../organizations/types.ts";
import { listOrganizationInvitations } from "../store.ts";

/** SPEC §6: members list their organization's invitations (every status), newest first, one page. */
export const listInvitations = defineEndpoint(listInvitationsContract, {
  async handler(ctx): Promise<Invitation[]> {
    const { auth, query } = ctx;
    const caller = requireCaller(ctx.session);
    const organizationId = resolveOrganizationId(caller.session, query.organizationId);
    await requireMembership(auth, organizationId, caller.user._id);
    const rows = await listOrganizationInvitations(
      auth.collections,
      organizationId,
      query.limit,
      query.offset,
    );
    return rows.map(toInvitation);
  },
});
