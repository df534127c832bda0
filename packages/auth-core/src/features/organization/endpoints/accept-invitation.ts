import { z } from "zod";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { acceptInvitation, loadInvitationForRecipient } from "../invitation-service.ts";
import { idField } from "../schemas.ts";
import { requireCaller, writeActiveOrganization } from "../service.ts";
import { type Invitation, type Member, toInvitation, toMember } from "../types.ts";

/**
 * SPEC §4: creates the member with the invitation's role (and teams) and makes the organization the
 * session's active one — and the team too when the invitation named exactly one.
 */
export const acceptInvitationEndpoint = defineEndpoint({
  name: "acceptInvitation",
  method: "POST",
  path: "/organization/accept-invitation",
  auth: "session",
  sensitive: true,
  body: z.strictObject({ invitationId: idField }),
  async handler(ctx): Promise<{ invitation: Invitation; member: Member }> {
    const { auth } = ctx;
    const caller = requireCaller(ctx.session);
    const pending = await loadInvitationForRecipient(auth, caller.user, ctx.body.invitationId);
    const accepted = await acceptInvitation(auth, pending, caller.user);
    const team = accepted.teams.length === 1 ? (accepted.teams[0]?._id.toHexString() ?? null) : null;
    await writeActiveOrganization(auth, ctx.cookies, caller, pending.organizationId.toHexString(), team);
    return { invitation: toInvitation(accepted.invitation), member: toMember(accepted.member) };
  },
});
