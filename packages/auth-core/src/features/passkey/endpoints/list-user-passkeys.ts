import { listPasskeysContract, type Passkey } from "../../../contracts/passkey.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { listUserPasskeys } from "../management.ts";

/** GET /passkey/list-user-passkeys: the caller's passkeys, oldest first. */
export const listPasskeys = defineEndpoint(listPasskeysContract, {
  async handler(ctx): Promise<Passkey[]> {
    return listUserPasskeys(ctx.auth, ctx.session!.user._id);
  },
});
