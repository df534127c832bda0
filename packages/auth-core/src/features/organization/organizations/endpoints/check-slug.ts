import { checkOrganizationSlugContract } from "../../../../contracts/organization.ts";
import { AuthError } from "../../../../errors/auth-error.ts";
import { defineEndpoint } from "../../../../http/define-endpoint.ts";
import { isSlugTaken } from "../service.ts";

/** "check-slug reports the slug as taken" (400); a free slug answers { status: true }. */
export const checkOrganizationSlug = defineEndpoint(checkOrganizationSlugContract, {
  async handler(ctx): Promise<{ status: true }> {
    if (await isSlugTaken(ctx.auth, ctx.body.slug)) throw new AuthError("ORGANIZATION_SLUG_TAKEN");
    return { status: true };
  },
});
