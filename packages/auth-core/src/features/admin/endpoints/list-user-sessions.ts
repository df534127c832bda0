import { listUserSessionsContract } from "../../../contracts/admin.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { listUserSessions as findUserSessions } from "../../session/index.ts";
import { type AdminSession, toAdminSession } from "../rules.ts";
import { requireAdminPermission, requireUserToManage } from "./guards.ts";

/** POST /admin/list-user-sessions {userId}: the user's unexpired sessions, impersonations marked. */
export const listUserSessions = defineEndpoint(listUserSessionsContract, {
  sensitive: true,
  async handler(ctx): Promise<{ sessions: AdminSession[] }> {
    const { auth } = ctx;
    const caller = requireAdminPermission(auth, ctx.session, { session: ["list"] });
    // Where and from what a user signs in is more than list-users shows: the may-manage rule applies.
    const target = await requireUserToManage(auth, caller, ctx.body.userId);
    const sessions = await findUserSessions(auth.collections, target._id, auth.now());
    return { sessions: sessions.map(toAdminSession) };
  },
});
