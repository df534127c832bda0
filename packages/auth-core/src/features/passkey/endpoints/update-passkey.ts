import { type Passkey, updatePasskeyContract } from "../../../contracts/passkey.ts";
import { parseId } from "../../../db/ids.ts";
import { AuthError } from "../../../errors/auth-error.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { renamePasskey } from "../management.ts";

/** POST /passkey/update-passkey {id, name}: renames one of the caller's passkeys; another's is "not found". */
export const updatePasskey = defineEndpoint(updatePasskeyContract, {
  fieldErrors: { id: "PASSKEY_NOT_FOUND" },
  sensitive: true,
  async handler(ctx): Promise<{ passkey: Passkey }> {
    const id = parseId(ctx.body.id);
    const passkey = id ? await renamePasskey(ctx.auth, ctx.session!.user._id, id, ctx.body.name) : null;
    if (!passkey) throw new AuthError("PASSKEY_NOT_FOUND");
    return { passkey };
  },
});
