import { deletePasskeyContract } from "../../../contracts/passkey.ts";
import { parseId } from "../../../db/ids.ts";
import { AuthError } from "../../../errors/auth-error.ts";
import { answerRefusal } from "../../../errors/refusal.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { removePasskey } from "../management.ts";

/**
 * POST /passkey/delete-passkey {id}: deletes one of the caller's passkeys — another user's is "not
 * found" — unless it is their last way to sign in (management.ts).
 */
export const deletePasskey = defineEndpoint(deletePasskeyContract, {
  fieldErrors: { id: "PASSKEY_NOT_FOUND" },
  sensitive: true,
  highRisk: true,
  async handler(ctx): Promise<{ status: true }> {
    const id = parseId(ctx.body.id);
    if (!id) throw new AuthError("PASSKEY_NOT_FOUND");
    answerRefusal(await removePasskey(ctx.auth, ctx.session!.user._id, id));
    return { status: true };
  },
});
