import { revokeOtherSessionsContract } from "../../../contracts/session.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { signOutEverywhere } from "../../sign-out-everywhere.ts";

/**
 * Ends every session of the caller except the current one (its cookies stay as they are), the
 * impersonations they started and the API keys their sessions minted (features/sign-out-everywhere.ts).
 */
export const revokeOtherSessions = defineEndpoint(revokeOtherSessionsContract, {
  sensitive: true,
  async handler(ctx): Promise<{ status: true }> {
    const caller = ctx.session!;
    await signOutEverywhere(ctx.auth, caller.user._id, caller.session.token);
    return { status: true };
  },
});
