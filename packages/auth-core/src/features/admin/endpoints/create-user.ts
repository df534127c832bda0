import { createUserContract } from "../../../contracts/admin.ts";
import { hashPassword } from "../../../crypto/index.ts";
import { AuthError } from "../../../errors/auth-error.ts";
import { answerRefusal } from "../../../errors/refusal.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { assertPasswordAllowed, createUserAlone, createUserWithPassword } from "../../users/index.ts";
import { resolveRoleInput } from "../role-service.ts";
import { type AdminUser, toAdminUser } from "../rules.ts";
import { auditSource, recordAuditEvent } from "../service.ts";
import { assertMayGrantRoles, requireAdminPermission } from "./guards.ts";

/**
 * POST /admin/create-user. Without a password the user has no credential account (they can use a
 * reset link or a social provider). A password given here is marked like set-user-password's
 * (`admin.setUserPasswordRequiresReset`): it signs nobody in until the user resets it, so the admin
 * never holds a working password of someone else (docs/security.md). Giving a role needs set-role
 * as well (docs/security.md). `language` (one of the eight codes) is the user's for mails and pages.
 */
export const createUserEndpoint = defineEndpoint(createUserContract, {
  sensitive: true,
  fieldErrors: { email: "INVALID_EMAIL" },
  async handler(ctx): Promise<{ user: AdminUser }> {
    const { auth, body } = ctx;
    const caller = requireAdminPermission(auth, ctx.session, {
      user: body.role === undefined ? ["create"] : ["create", "set-role"],
    });
    const role = body.role === undefined ? undefined : answerRefusal(resolveRoleInput(auth, body.role));
    if (role !== undefined) assertMayGrantRoles(auth, caller, role);
    if (body.password !== undefined) await assertPasswordAllowed(auth, body.password, { email: body.email });
    const hash = body.password === undefined ? null : await hashPassword(body.password);
    const fields = {
      email: body.email,
      name: body.name,
      image: body.data?.image ?? null,
      emailVerified: body.data?.emailVerified ?? false,
      ...(role === undefined ? {} : { role }),
      // Without one, mails go in the configured `language` until the user picks one (as sign-up).
      ...(body.language === undefined ? {} : { language: body.language }),
    };
    // With a password: user and credential account, or neither (matrix N2, as sign-up).
    const resetRequired = auth.options.admin.setUserPasswordRequiresReset;
    const created =
      hash === null
        ? await createUserAlone(auth, fields)
        : await createUserWithPassword(auth, fields, hash, resetRequired);
    if (!created.ok)
      throw new AuthError(created.reason === "exists" ? "USER_ALREADY_EXISTS" : "FAILED_TO_CREATE_USER");
    await recordAuditEvent(auth, {
      action: "user.create",
      actorId: caller.user._id,
      subjectId: created.user._id,
      details: { role: role ?? auth.options.admin.defaultRole },
      ...auditSource(ctx),
    });
    return { user: toAdminUser(created.user, auth.options.admin.defaultRole) };
  },
});
