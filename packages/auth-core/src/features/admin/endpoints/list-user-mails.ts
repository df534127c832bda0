import { adminListUserMailsContract, type UserMail } from "../../../contracts/mail-outbox.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { listRecentUserMails } from "../../mail-outbox/index.ts";
import { requireAdminPermission, requireUserToManage } from "./guards.ts";

/** The most recent mails shown; older ones stay in the outbox until cleanup (mailQueue.keepDays). */
const RECENT_MAILS = 20;

/**
 * POST /admin/list-user-mails {userId}: whether the user's mails left (the admin's user page). The
 * may-manage rule applies, as for the user's sessions and passkeys; no body is ever listed.
 */
export const adminListUserMails = defineEndpoint(adminListUserMailsContract, {
  sensitive: true,
  async handler(ctx): Promise<{ mails: UserMail[] }> {
    const { auth } = ctx;
    const caller = requireAdminPermission(auth, ctx.session, { user: ["get"] });
    const target = await requireUserToManage(auth, caller, ctx.body.userId);
    return { mails: await listRecentUserMails(auth, target._id, RECENT_MAILS) };
  },
});
