import {
  type AcceptedInvitation,
  acceptInvitationContract,
} from "../../../../contracts/organization-invitations.ts";
import { AuthError } from "../../../../errors/auth-error.ts";
import { answerRefusal } from "../../../../errors/refusal.ts";
import { defineEndpoint } from "../../../../http/define-endpoint.ts";
import { requireCaller, requireInviterStillAllowed } from "../../endpoints/guards.ts";
import { toMember } from "../../members/types.ts";
import { takeBackMembershipIfOrphaned, writeActiveOrganization } from "../../organizations/service.ts";
import { acceptInvitation, loadInvitationForRecipient } from "../service.ts";
import { toInvitation } from "../types.ts";

/**
 * creates the member with the invitation's role (and teams) and makes the organization the
 * session's active one — and the team too when the invitation named exactly one. The inviter must
 * still be allowed to invite that role (as get-invitation says).
 */
export const acceptInvitationEndpoint = defineEndpoint(acceptInvitationContract, {
  sensitive: true,
  async handler(ctx): Promise<AcceptedInvitation> {
    const { auth } = ctx;
    const caller = requireCaller(ctx.session);
    const pending = answerRefusal(await loadInvitationForRecipient(auth, caller.user, ctx.body.invitationId));
    await requireInviterStillAllowed(auth, pending);
    const accepted = answerRefusal(await acceptInvitation(auth, pending, caller.user));
    const organizationId = pending.organizationId.toHexString();
    const team = accepted.teams.length === 1 ? (accepted.teams[0]?._id.toHexString() ?? null) : null;
    // A session update hook refusing the switch leaves the session as it was; the membership, already
    // stored, stands: the caller is not told their accept failed when it did not.
    await writeActiveOrganization(auth, ctx.cookies, caller, organizationId, team);
    // An organization, team or user deleted meanwhile: its cascade may have run before our member
    // insert or our session write, leaving both pointing at nothing. Read after both writes: gone →
    // take both back (the session gets its previous active organization).
    const gone = await takeBackMembershipIfOrphaned(auth, accepted.member, accepted.teams);
    if (gone) {
      const previous = caller.session.activeOrganizationId === organizationId ? null : caller.session;
      const restored = previous?.activeOrganizationId ?? null;
      await writeActiveOrganization(auth, ctx.cookies, caller, restored, previous?.activeTeamId ?? null);
      throw new AuthError(gone);
    }
    return { invitation: toInvitation(accepted.invitation), member: toMember(accepted.member) };
  },
});
