import { listInvitationsContract } from "../../../../contracts/organization-invitations.ts";
import { defineEndpoint } from "../../../../http/define-endpoint.ts";
import { requireCaller, requireMembership, resolveRequestOrganizationId } from "../../endpoints/guards.ts";
import { listInvitationsOf } from "../service.ts";
import { type Invitation, toInvitation } from "../types.ts";

/** members list their organization's invitations (every status), newest first, one page. */
export const listInvitations = defineEndpoint(listInvitationsContract, {
  async handler(ctx): Promise<Invitation[]> {
    const { auth, query } = ctx;
    const caller = requireCaller(ctx.session);
    const organizationId = await resolveRequestOrganizationId(ctx, query.organizationId);
    await requireMembership(auth, organizationId, caller.user._id);
    const rows = await listInvitationsOf(auth, organizationId, query.limit, query.offset);
    return rows.map(toInvitation);
  },
});
