import { z } from "zod";
import { AuthError } from "../../../errors/auth-error.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import {
  claimInvitation,
  closeAs,
  loadInvitationForRecipient,
  requireInviterStillAllowed,
} from "../invitation-service.ts";
import { idField } from "../schemas.ts";
import { requireCaller } from "../service.ts";
import { type Invitation, toInvitation } from "../types.ts";

/**
 * SPEC §4: only from pending and unexpired, only by the invited address, and only while the inviter
 * may still invite that role (as get-invitation and accept).
 */
export const rejectInvitation = defineEndpoint({
  name: "rejectInvitation",
  method: "POST",
  path: "/organization/reject-invitation",
  auth: "session",
  sensitive: true,
  body: z.strictObject({ invitationId: idField }),
  async handler(ctx): Promise<{ invitation: Invitation; member: null }> {
    const { auth } = ctx;
    const caller = requireCaller(ctx.session);
    const pending = await loadInvitationForRecipient(auth, caller.user, ctx.body.invitationId);
    await requireInviterStillAllowed(auth, pending);
    // The claim decides between concurrent accepts, rejects and cancels (invitation-service.ts).
    if (!(await claimInvitation(auth, pending))) throw new AuthError("INVITATION_NOT_FOUND");
    const rejected = await closeAs(auth, pending, "rejected");
    return { invitation: toInvitation(rejected), member: null };
  },
});
