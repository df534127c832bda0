import { adminListUserPasskeysContract, type Passkey } from "../../../contracts/passkey.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { listUserPasskeys } from "../../passkey/index.ts";
import { requireAdminPermission, requireUserToManage } from "./guards.ts";

/** POST /admin/list-user-passkeys {userId}: the user's passkeys; more than list-users shows, so the may-manage rule applies. */
export const adminListUserPasskeys = defineEndpoint(adminListUserPasskeysContract, {
  sensitive: true,
  async handler(ctx): Promise<{ passkeys: Passkey[] }> {
    const { auth } = ctx;
    const caller = requireAdminPermission(auth, ctx.session, { user: ["get"] });
    const target = await requireUserToManage(auth, caller, ctx.body.userId);
    return { passkeys: await listUserPasskeys(auth, target._id) };
  },
});
