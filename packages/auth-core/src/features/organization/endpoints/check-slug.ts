import { z } from "zod";
import { AuthError } from "../../../errors/auth-error.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { slugField } from "../schemas.ts";
import { findOrganizationBySlug } from "../store.ts";

/** SPEC §5: "check-slug reports the slug as taken" (400); a free slug answers { status: true }. */
export const checkOrganizationSlug = defineEndpoint({
  name: "checkOrganizationSlug",
  method: "POST",
  path: "/organization/check-slug",
  auth: "session",
  body: z.strictObject({ slug: slugField }),
  async handler(ctx): Promise<{ status: true }> {
    if (await findOrganizationBySlug(ctx.auth.collections, ctx.body.slug))
      throw new AuthError("ORGANIZATION_SLUG_TAKEN");
    return { status: true };
  },
});
