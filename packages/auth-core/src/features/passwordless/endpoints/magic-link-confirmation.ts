import { magicLinkConfirmationContract } from "../../../contracts/passwordless.ts";
import { AuthError } from "../../../errors/auth-error.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { findLiveLink } from "../checks.ts";
import { assertMagicLinkEnabled } from "./guards.ts";

/**
 * GET /magic-link/confirmation: the address of a live link, for the app's confirmation page
 * (`magicLink.confirmURL`). Reads only (findLiveLink), as the link's own GET: mail scanners reach
 * this page too, and must spend nothing.
 */
export const magicLinkConfirmation = defineEndpoint(magicLinkConfirmationContract, {
  async handler(ctx): Promise<{ email: string }> {
    assertMagicLinkEnabled(ctx.auth);
    const live = await findLiveLink(ctx.auth, ctx.query.token);
    if (!live) throw new AuthError("INVALID_TOKEN");
    return { email: live.record.email };
  },
});
