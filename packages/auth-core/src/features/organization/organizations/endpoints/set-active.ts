import { setActiveOrganizationContract } from "../../../../contracts/organization.ts";
import { AuthError } from "../../../../errors/auth-error.ts";
import { defineEndpoint } from "../../../../http/define-endpoint.ts";
import { isApiKeySession } from "../../../api-key/index.ts";
import {
  requireCaller,
  requireMembership,
  requireOrganization,
  resolveOrganizationRef,
  writeActiveOrSay,
} from "../../endpoints/guards.ts";
import { type Organization, toOrganization } from "../types.ts";

/**
 * Sets the session's active organization by id or slug; `organizationId: null` (or neither) clears it.
 * A non-member is refused and the session keeps its active organization (docs/security.md).
 */
export const setActiveOrganization = defineEndpoint(setActiveOrganizationContract, {
  async handler(ctx): Promise<Organization | null> {
    const { auth, body } = ctx;
    const caller = requireCaller(ctx.session);
    // A key has no session whose active organization could be set: refuse rather than answer a
    // success that changed nothing.
    if (isApiKeySession(caller)) throw new AuthError("NOT_AUTHORIZED");
    if (
      body.organizationId === null ||
      (body.organizationId === undefined && body.organizationSlug === undefined)
    ) {
      await writeActiveOrSay(auth, ctx.cookies, caller, null, null);
      return null;
    }
    const ref = await resolveOrganizationRef(ctx, {
      organizationId: body.organizationId,
      organizationSlug: body.organizationSlug,
    });
    await requireMembership(auth, ref.id, caller.user._id);
    const organization = ref.organization ?? (await requireOrganization(auth, ref.id));
    await writeActiveOrSay(auth, ctx.cookies, caller, organization._id.toHexString(), null);
    return toOrganization(organization);
  },
});
