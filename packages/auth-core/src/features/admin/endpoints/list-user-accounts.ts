import { adminListUserAccountsContract } from "../../../contracts/admin.ts";
import { type AdminLinkedAccountList, adminLinkedAccountModel } from "../../../contracts/admin-models.ts";
import { toModelValue } from "../../../db/model.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { listUserAccounts } from "../../social/index.ts";
import { requireAdminPermission, requireUserToManage } from "./guards.ts";

/**
 * Server-only POST /admin/list-user-accounts {userId} → {accounts}: provider, account id and date of
 * each linked account, oldest first. Which providers a user signs in with is more than list-users
 * shows, so the may-manage rule applies as for their sessions (requireUserToManage).
 */
export const adminListUserAccounts = defineEndpoint(adminListUserAccountsContract, {
  sensitive: true,
  async handler(ctx): Promise<AdminLinkedAccountList> {
    const { auth } = ctx;
    const caller = requireAdminPermission(auth, ctx.session, { user: ["get"] });
    const target = await requireUserToManage(auth, caller, ctx.body.userId);
    const accounts = await listUserAccounts(auth, target._id);
    // The view's fields only: tokens and the password hash never leave (docs/security.md).
    return { accounts: accounts.map((account) => toModelValue(adminLinkedAccountModel, account)) };
  },
});
