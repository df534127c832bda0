import { cancelInvitationContract } from "../../../../contracts/organization-invitations.ts";
import { AuthError } from "../../../../errors/auth-error.ts";
import { defineEndpoint } from "../../../../http/define-endpoint.ts";
import { assertPermission, requireCaller } from "../../endpoints/guards.ts";
import { findMember } from "../../members/service.ts";
import { claimInvitation, closeAs, findInvitation } from "../service.ts";
import { type Invitation, toInvitation } from "../types.ts";

/**
 * checked against existence and permission only (an expired pending invitation can be
 * canceled). Someone outside the invitation's organization gets the same refusal as a member
 * without `invitation:cancel`.
 */
export const cancelInvitation = defineEndpoint(cancelInvitationContract, {
  sensitive: true,
  async handler(ctx): Promise<Invitation> {
    const { auth } = ctx;
    const caller = requireCaller(ctx.session);
    const invitation = await findInvitation(auth, ctx.body.invitationId);
    if (!invitation) throw new AuthError("INVITATION_NOT_FOUND");
    const member = await findMember(auth, invitation.organizationId, caller.user._id);
    if (!member) throw new AuthError("INVITATION_CANCEL_NOT_ALLOWED");
    assertPermission(auth, member, { invitation: ["cancel"] }, "INVITATION_CANCEL_NOT_ALLOWED");
    if (invitation.status !== "pending" || !(await claimInvitation(auth, invitation)))
      throw new AuthError("INVITATION_NOT_FOUND");
    return toInvitation(await closeAs(auth, invitation, "canceled"));
  },
});
