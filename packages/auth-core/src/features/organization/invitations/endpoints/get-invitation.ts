import { getInvitationContract } from "../../../../contracts/organization-invitations.ts";
import type { InvitationDetails } from "../../../../contracts/organization-models.ts";
import { AuthError } from "../../../../errors/auth-error.ts";
import { answerRefusal } from "../../../../errors/refusal.ts";
import { defineEndpoint } from "../../../../http/define-endpoint.ts";
import { requireCaller, requireInviterStillAllowed } from "../../endpoints/guards.ts";
import { findUser } from "../../members/service.ts";
import { findOrganization } from "../../organizations/service.ts";
import { loadInvitationForRecipient } from "../service.ts";
import { toInvitation } from "../types.ts";

export type { InvitationDetails };

/** the invitation plus organizationName, organizationSlug and inviterEmail, for its recipient. */
export const getInvitation = defineEndpoint(getInvitationContract, {
  async handler(ctx): Promise<InvitationDetails> {
    const { auth } = ctx;
    const caller = requireCaller(ctx.session);
    const invitation = answerRefusal(await loadInvitationForRecipient(auth, caller.user, ctx.query.id));
    const organization = await findOrganization(auth, invitation.organizationId);
    if (!organization) throw new AuthError("FAILED_TO_RETRIEVE_INVITATION");
    await requireInviterStillAllowed(auth, invitation);
    const inviter = await findUser(auth, invitation.inviterId);
    if (!inviter) throw new AuthError("INVITER_NO_LONGER_MEMBER");
    return {
      ...toInvitation(invitation),
      organizationName: organization.name,
      organizationSlug: organization.slug,
      inviterEmail: inviter.email,
    };
  },
});
