import { z } from "zod";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { hasPermission } from "../rules.ts";
import { idField } from "../schemas.ts";
import { requireCaller, requireMembership, resolveOrganizationId, roleTableOf } from "../service.ts";

const permissionsField = z.record(z.string().min(1).max(64), z.array(z.string().min(1).max(64)).max(32));

/** Whether the caller's roles grant every requested action (SPEC §6; `permission` is the old name). */
export const hasOrganizationPermission = defineEndpoint({
  name: "hasPermission",
  method: "POST",
  path: "/organization/has-permission",
  auth: "session",
  body: z
    .strictObject({
      permissions: permissionsField.optional(),
      permission: permissionsField.optional(),
      organizationId: idField.optional(),
    })
    .refine(
      (body) => body.permissions !== undefined || body.permission !== undefined,
      "permissions is required",
    ),
  async handler(ctx): Promise<{ error: null; success: boolean }> {
    const { auth, body } = ctx;
    const caller = requireCaller(ctx.session);
    const organizationId = resolveOrganizationId(caller.session, body.organizationId);
    const member = await requireMembership(auth, organizationId, caller.user._id);
    const request = body.permissions ?? body.permission ?? {};
    return { error: null, success: hasPermission(member.role, request, roleTableOf(auth)) };
  },
});
