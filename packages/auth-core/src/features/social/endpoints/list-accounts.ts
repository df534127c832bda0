import { listUserAccountsContract } from "../../../contracts/social.ts";
import { type AccountSummary, accountSummaryModel } from "../../../contracts/social-models.ts";
import { toModelValue } from "../../../db/model.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { splitScopes } from "../rules.ts";
import { listUserAccounts } from "../service.ts";

/** the endpoint reference (docs/reference.md) GET /list-accounts: never tokens or password hashes. */
export const listAccounts = defineEndpoint(listUserAccountsContract, {
  async handler(ctx): Promise<AccountSummary[]> {
    const session = ctx.session;
    if (!session) return [];
    const accounts = await listUserAccounts(ctx.auth, session.user._id);
    return accounts.map((account) =>
      toModelValue(accountSummaryModel, account, { scopes: splitScopes(account.scope) }),
    );
  },
});
