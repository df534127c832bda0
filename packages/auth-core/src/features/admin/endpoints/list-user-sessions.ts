import { listUserSessionsContract } from "../../../contracts/admin.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { listUserSessions as findUserSessions } from "../../session/store.ts";
import { type AdminSession, toAdminSession } from "../rules.ts";
import { findTargetUser, requireAdminPermission } from "../service.ts";

/** POST /admin/list-user-sessions {userId}: the user's unexpired sessions, impersonations marked. */
export const listUserSessions = defineEndpoint(listUserSessionsContract, {
  sensitive: true,
  async handler(ctx): Promise<{ sessions: AdminSession[] }> {
    const { auth } = ctx;
    requireAdminPermission(auth, ctx.session, { session: ["list"] });
    const target = await findTargetUser(auth, ctx.body.userId);
    const sessions = await findUserSessions(auth.collections, target._id, auth.now());
    return { sessions: sessions.map(toAdminSession) };
  },
});
