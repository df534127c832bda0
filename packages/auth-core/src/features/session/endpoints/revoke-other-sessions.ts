import { revokeOtherSessionsContract } from "../../../contracts/session.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { deleteUserSessions } from "../store.ts";

/** Ends every session of the caller except the current one (its cookies stay as they are). */
export const revokeOtherSessions = defineEndpoint(revokeOtherSessionsContract, {
  sensitive: true,
  async handler(ctx): Promise<{ status: true }> {
    const caller = ctx.session!;
    await deleteUserSessions(ctx.auth.collections, caller.user._id, caller.session.token);
    return { status: true };
  },
});
