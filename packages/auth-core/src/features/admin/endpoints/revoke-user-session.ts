import { z } from "zod";
import { AuthError } from "../../../errors/auth-error.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { tokenField } from "../../schemas.ts";
import { deleteSessionByToken } from "../../session/store.ts";
import { requireAdminPermission } from "../service.ts";

/** POST /admin/revoke-user-session {sessionToken}: ends one session; 400 "Session not found" when none. */
export const revokeUserSession = defineEndpoint({
  name: "revokeUserSession",
  method: "POST",
  path: "/admin/revoke-user-session",
  auth: "session",
  sensitive: true,
  body: z.strictObject({ sessionToken: tokenField }),
  async handler(ctx): Promise<{ success: true }> {
    const { auth } = ctx;
    requireAdminPermission(auth, ctx.session, { session: ["revoke"] });
    if (!(await deleteSessionByToken(auth.collections, ctx.body.sessionToken))) {
      throw new AuthError("SESSION_NOT_FOUND");
    }
    return { success: true };
  },
});
