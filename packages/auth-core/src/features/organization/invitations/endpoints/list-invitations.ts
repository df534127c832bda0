import { listInvitationsContract } from "../../../../contracts/organization-invitations.ts";
import type { ListedInvitation } from "../../../../contracts/organization-models.ts";
import { defineEndpoint } from "../../../../http/define-endpoint.ts";
import { readInvitationMailStates } from "../../../mail-outbox/index.ts";
import { requireCaller, requireMembership, resolveRequestOrganizationId } from "../../endpoints/guards.ts";
import { listInvitationsOf } from "../service.ts";
import { toInvitation } from "../types.ts";

/**
 * members list their organization's invitations (every status), newest first, one page, each with
 * its latest mail's state (features/mail-outbox: one more indexed read for the page).
 */
export const listInvitations = defineEndpoint(listInvitationsContract, {
  async handler(ctx): Promise<ListedInvitation[]> {
    const { auth, query } = ctx;
    const caller = requireCaller(ctx.session);
    const organizationId = await resolveRequestOrganizationId(ctx, query.organizationId);
    await requireMembership(auth, organizationId, caller.user._id);
    const rows = await listInvitationsOf(auth, organizationId, query.limit, query.offset);
    const mails = await readInvitationMailStates(
      auth,
      rows.map((row) => row._id),
    );
    return rows.map((row) => ({ ...toInvitation(row), mailState: mails.get(row._id.toHexString()) ?? null }));
  },
});
