import { listUserInvitationsContract } from "../../../../contracts/organization-invitations.ts";
import type { UserInvitation } from "../../../../contracts/organization-models.ts";
import { AuthError } from "../../../../errors/auth-error.ts";
import { defineEndpoint } from "../../../../http/define-endpoint.ts";
import { findOrganizationsByIds } from "../../organizations/service.ts";
import { listOpenInvitationsOf } from "../service.ts";
import { toInvitation } from "../types.ts";

const LIST_LIMIT = 100;

/**
 * The signed-in user's pending, unexpired invitations with each organization's name. Server code
 * may ask for any address with `email`; over HTTP that would list someone else's, so it is refused.
 */
export const listUserInvitations = defineEndpoint(listUserInvitationsContract, {
  async handler(ctx): Promise<UserInvitation[]> {
    const { auth } = ctx;
    let email: string;
    if (ctx.query.email !== undefined) {
      if (!ctx.isServerCall)
        throw new AuthError("VALIDATION_ERROR", {
          details: { issues: [{ path: "email", message: "server only" }] },
        });
      email = ctx.query.email;
    } else {
      const caller = ctx.session;
      if (!caller) throw new AuthError("UNAUTHORIZED");
      if (auth.options.organization.requireEmailVerificationOnInvitation && !caller.user.emailVerified)
        throw new AuthError("INVITATION_EMAIL_NOT_VERIFIED");
      email = caller.user.email;
    }
    const invitations = await listOpenInvitationsOf(auth, email, LIST_LIMIT);
    const organizations = await findOrganizationsByIds(auth, [
      ...new Map(invitations.map((row) => [row.organizationId.toHexString(), row.organizationId])).values(),
    ]);
    const names = new Map(organizations.map((org) => [org._id.toHexString(), org.name]));
    return invitations.flatMap((row) => {
      const organizationName = names.get(row.organizationId.toHexString());
      return organizationName === undefined ? [] : [{ ...toInvitation(row), organizationName }];
    });
  },
});
