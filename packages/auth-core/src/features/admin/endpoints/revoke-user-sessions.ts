import { z } from "zod";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { deleteUserSessions } from "../../session/store.ts";
import { userIdField } from "../schemas.ts";
import { findTargetUser, requireAdminPermission } from "../service.ts";
import { deleteImpersonationSessionsBy } from "../store.ts";

/** POST /admin/revoke-user-sessions {userId}: ends every session of the user (the caller's own too, if it is theirs). */
export const revokeUserSessions = defineEndpoint({
  name: "revokeUserSessions",
  method: "POST",
  path: "/admin/revoke-user-sessions",
  auth: "session",
  sensitive: true,
  body: z.strictObject({ userId: userIdField }),
  async handler(ctx): Promise<{ success: true }> {
    const { auth } = ctx;
    requireAdminPermission(auth, ctx.session, { session: ["revoke"] });
    const target = await findTargetUser(auth, ctx.body.userId);
    await deleteUserSessions(auth.collections, target._id);
    // An admin's impersonations carry their authority: they end with the admin's sessions (finding 5).
    await deleteImpersonationSessionsBy(auth.collections, target._id);
    return { success: true };
  },
});
