import {
  type RejectedInvitation,
  rejectInvitationContract,
} from "../../../../contracts/organization-invitations.ts";
import { AuthError } from "../../../../errors/auth-error.ts";
import { answerRefusal } from "../../../../errors/refusal.ts";
import { defineEndpoint } from "../../../../http/define-endpoint.ts";
import { requireCaller, requireInviterStillAllowed } from "../../endpoints/guards.ts";
import { claimInvitation, closeAs, loadInvitationForRecipient } from "../service.ts";
import { toInvitation } from "../types.ts";

/**
 * only from pending and unexpired, only by the invited address, and only while the inviter
 * may still invite that role (as get-invitation and accept).
 */
export const rejectInvitation = defineEndpoint(rejectInvitationContract, {
  sensitive: true,
  async handler(ctx): Promise<RejectedInvitation> {
    const { auth } = ctx;
    const caller = requireCaller(ctx.session);
    const pending = answerRefusal(await loadInvitationForRecipient(auth, caller.user, ctx.body.invitationId));
    await requireInviterStillAllowed(auth, pending);
    // The claim decides between concurrent accepts, rejects and cancels (invitations/service.ts).
    if (!(await claimInvitation(auth, pending))) throw new AuthError("INVITATION_NOT_FOUND");
    const rejected = await closeAs(auth, pending, "rejected");
    return { invitation: toInvitation(rejected), member: null };
  },
});
