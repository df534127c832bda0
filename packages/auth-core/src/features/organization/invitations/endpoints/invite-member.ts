import { createInvitationContract } from "../../../../contracts/organization-invitations.ts";
import { answerRefusal } from "../../../../errors/refusal.ts";
import { defineEndpoint } from "../../../../http/define-endpoint.ts";
import { requireCaller, resolveRequestOrganizationId } from "../../endpoints/guards.ts";
import { inviteToOrganization } from "../invite.ts";
import { type CreatedInvitation, toInvitation } from "../types.ts";

/**
 * Invites an address with `invitation:create`, only to roles the inviter could grant (nobody grants
 * a role they do not hold). `resend` re-arms a pending invitation; otherwise a second invitation of
 * a pending address is refused (docs/decisions/). The mail carries the invitation link;
 * `emailSent` (not in Better Auth) is false when the mail limit held it back. The rules
 * live in invite.ts, shared with the operator's bulk invitations.
 */
export const inviteMember = defineEndpoint(createInvitationContract, {
  sensitive: true,
  fieldErrors: { email: "INVALID_EMAIL" },
  async handler(ctx): Promise<CreatedInvitation> {
    const { auth, body } = ctx;
    const caller = requireCaller(ctx.session);
    const { invitation, emailSent } = answerRefusal(
      await inviteToOrganization(auth, {
        organizationId: await resolveRequestOrganizationId(ctx, body.organizationId),
        inviter: caller.user,
        email: body.email,
        roles: body.role,
        teamIds: body.teamId ?? [],
        resend: body.resend === true,
      }),
    );
    return { ...toInvitation(invitation), emailSent };
  },
});
