import { deleteApiKeyContract } from "../../../contracts/api-key.ts";
import { parseId } from "../../../db/ids.ts";
import { AuthError } from "../../../errors/auth-error.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { deleteKeyUses, deleteUserApiKey } from "../service.ts";
import { assertNotImpersonating } from "./guards.ts";

/**
 * POST /api-key/delete {keyId} → {success}. Only the owner's key is deleted (the filter carries the
 * owner); another user's or a missing key: 404. The key row goes first, so a crash between the two
 * writes leaves only unreachable use claims.
 */
export const deleteApiKeyEndpoint = defineEndpoint(deleteApiKeyContract, {
  sensitive: true,
  async handler(ctx): Promise<{ success: true }> {
    assertNotImpersonating(ctx.session);
    const id = parseId(ctx.body.keyId);
    const deleted = id ? await deleteUserApiKey(ctx.auth, ctx.session!.user._id, id) : false;
    if (!id || !deleted) throw new AuthError("API_KEY_NOT_FOUND");
    await deleteKeyUses(ctx.auth, id);
    return { success: true };
  },
});
