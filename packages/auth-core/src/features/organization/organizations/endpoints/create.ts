import { createOrganizationContract } from "../../../../contracts/organization.ts";
import type { CreatedOrganization } from "../../../../contracts/organization-models.ts";
import type { UserDoc } from "../../../../db/documents.ts";
import { parseId } from "../../../../db/ids.ts";
import { AuthError } from "../../../../errors/auth-error.ts";
import { answerRefusal } from "../../../../errors/refusal.ts";
import { defineEndpoint, type EndpointContext } from "../../../../http/define-endpoint.ts";
import { findUser } from "../../members/service.ts";
import { toMember } from "../../members/types.ts";
import { createOrganizationWithOwner, mayCreateOrganization, writeActiveOrganization } from "../service.ts";
import { toOrganization } from "../types.ts";

/**
 * The creator: the signed-in user, or — for server code only — an explicit userId. Over
 * HTTP a userId is refused, so nobody creates an organization in another user's name (CVE-2025-61928).
 */
async function resolveCreator(
  ctx: EndpointContext<{ userId?: string | undefined }, unknown>,
): Promise<UserDoc> {
  if (ctx.body.userId !== undefined) {
    if (!ctx.isServerCall)
      throw new AuthError("VALIDATION_ERROR", {
        details: { issues: [{ path: "userId", message: "only server code may create for another user" }] },
      });
    const id = parseId(ctx.body.userId);
    const user = id ? await findUser(ctx.auth, id) : null;
    if (!user) throw new AuthError("MEMBER_USER_NOT_FOUND");
    return user;
  }
  if (ctx.session) return ctx.session.user;
  throw new AuthError(ctx.isServerCall ? "NOT_AUTHENTICATED" : "UNAUTHORIZED");
}

export const createOrganization = defineEndpoint(createOrganizationContract, {
  sensitive: true,
  async handler(ctx): Promise<CreatedOrganization> {
    const { auth } = ctx;
    const user = await resolveCreator(ctx);
    if (!(await mayCreateOrganization(auth, user))) throw new AuthError("ORGANIZATION_CREATION_NOT_ALLOWED");
    const { organization, member } = answerRefusal(
      await createOrganizationWithOwner(auth, user._id, {
        name: ctx.body.name,
        slug: ctx.body.slug,
        logo: ctx.body.logo ?? null,
        metadata: ctx.body.metadata ?? null,
      }),
    );
    const caller = ctx.session;
    if (caller?.user._id.equals(user._id) && ctx.body.keepCurrentActiveOrganization !== true)
      // A session update hook refusing the switch leaves the session as it was; the organization,
      // already stored, stands: the caller is not told their create failed when it did not.
      await writeActiveOrganization(auth, ctx.cookies, caller, organization._id.toHexString(), null);
    return { ...toOrganization(organization), members: [toMember(member)] };
  },
});
