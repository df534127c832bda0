import { createInvitationContract } from "../../../../contracts/organization-invitations.ts";
import { AuthError } from "../../../../errors/auth-error.ts";
import { answerRefusal } from "../../../../errors/refusal.ts";
import { defineEndpoint } from "../../../../http/define-endpoint.ts";
import {
  assertPermission,
  requireCaller,
  requireMembership,
  requireOrganizationTeams,
  resolveOrganizationId,
} from "../../endpoints/guards.ts";
import { canGrantRoles, findUnknownRoles } from "../../members/rules.ts";
import { findAddressMembership, roleTableOf } from "../../members/service.ts";
import { findOrganization } from "../../organizations/service.ts";
import { inviteOrRenew, sendInvitationMail, withdrawInvitation } from "../service.ts";
import { type Invitation, toInvitation } from "../types.ts";

/**
 * Invites an address with `invitation:create`, only to roles the inviter could grant (nobody grants
 * a role they do not hold). `resend` re-arms a pending invitation; otherwise a second invitation of
 * a pending address is refused (docs/decisions.md). The mail carries the invitation link.
 */
export const inviteMember = defineEndpoint(createInvitationContract, {
  sensitive: true,
  fieldErrors: { email: "INVALID_EMAIL" },
  async handler(ctx): Promise<Invitation> {
    const { auth, body } = ctx;
    const caller = requireCaller(ctx.session);
    const organizationId = resolveOrganizationId(caller.session, body.organizationId);
    const own = await requireMembership(auth, organizationId, caller.user._id);
    assertPermission(auth, own, { invitation: ["create"] }, "INVITATION_CREATE_NOT_ALLOWED");
    const table = roleTableOf(auth);
    if (findUnknownRoles(body.role, table).length > 0) throw new AuthError("MEMBER_ROLE_NOT_FOUND");
    if (!canGrantRoles(own.role, body.role, table, auth.options.organization.creatorRole))
      throw new AuthError("INVITATION_ROLE_NOT_ALLOWED");
    const teams = await requireOrganizationTeams(auth, organizationId, body.teamId ?? []);
    const invitee = await findAddressMembership(auth, organizationId, body.email);
    if (invitee.isMember) throw new AuthError("MEMBER_ALREADY_EXISTS");
    const invitation = answerRefusal(
      await inviteOrRenew(
        auth,
        {
          organizationId,
          email: body.email,
          role: body.role.join(","),
          teamId: teams.length > 0 ? teams.map((team) => team._id.toHexString()).join(",") : null,
          inviterId: caller.user._id,
        },
        body.resend === true,
      ),
    );
    // Read after the insert: an organization deleted meanwhile (its cascade may have run before our
    // insert) takes the invitation back instead of leaving it behind.
    const organization = await findOrganization(auth, organizationId);
    if (!organization) {
      await withdrawInvitation(auth, invitation);
      throw new AuthError("ORGANIZATION_NOT_FOUND");
    }
    await sendInvitationMail(auth, invitation, organization, caller.user, invitee.user?.language);
    return toInvitation(invitation);
  },
});
