import { z } from "zod";
import { parseId } from "../../../db/ids.ts";
import { AuthError } from "../../../errors/auth-error.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { idField, slugField } from "../schemas.ts";
import { requireCaller, requireMembership, resolveOrganizationRef } from "../service.ts";
import { findMember } from "../store.ts";

/** The caller's role (or, with userId, a fellow member's) in the named or active organization. */
export const getActiveMemberRole = defineEndpoint({
  name: "getActiveMemberRole",
  method: "GET",
  path: "/organization/get-active-member-role",
  auth: "session",
  query: z.strictObject({
    userId: idField.optional(),
    organizationId: idField.optional(),
    organizationSlug: slugField.optional(),
  }),
  async handler(ctx): Promise<{ role: string }> {
    const { auth, query } = ctx;
    const caller = requireCaller(ctx.session);
    const ref = await resolveOrganizationRef(auth, caller.session, query);
    const own = await requireMembership(auth, ref.id, caller.user._id);
    if (query.userId === undefined || query.userId === caller.user._id.toHexString())
      return { role: own.role };
    const userId = parseId(query.userId);
    const member = userId ? await findMember(auth.collections, ref.id, userId) : null;
    if (!member) throw new AuthError("USER_NOT_MEMBER");
    return { role: member.role };
  },
});
