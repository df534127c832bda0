import { updateApiKeyContract } from "../../../contracts/api-key.ts";
import { parseId } from "../../../db/ids.ts";
import { AuthError } from "../../../errors/auth-error.ts";
import { answerRefusal } from "../../../errors/refusal.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { findUserApiKey, presentApiKey, updateUserApiKey } from "../service.ts";
import type { ApiKey } from "../types.ts";
import { buildKeyUpdate } from "../update-service.ts";
import { assertFreshWhenSessionOwned, resolveKeyOwner } from "./guards.ts";

/**
 * POST /api-key/update {keyId, name?, enabled?, expiresIn?, metadata?} → the key. Limits,
 * permissions and userId are server-only (guards.ts); another user's key answers 404. Setting an
 * expiry or re-enabling from a session needs a fresh one, as creating a key does.
 */
export const updateApiKeyEndpoint = defineEndpoint(updateApiKeyContract, {
  sensitive: true,
  async handler(ctx): Promise<ApiKey> {
    const userId = resolveKeyOwner(ctx, ctx.body);
    const { keyId, userId: _ignored, ...input } = ctx.body;
    // A new expiry or re-enabling extends what the key can do: the same fresh session as minting one.
    if (input.expiresIn !== undefined || input.enabled === true) assertFreshWhenSessionOwned(ctx, ctx.body);
    const id = parseId(keyId);
    const doc = id ? await findUserApiKey(ctx.auth, userId, id) : null;
    if (!id || !doc) throw new AuthError("API_KEY_NOT_FOUND");
    const change = answerRefusal(await buildKeyUpdate(ctx.auth, doc, input));
    if (!change) throw new AuthError("NO_FIELDS_TO_UPDATE");
    const updated = await updateUserApiKey(ctx.auth, userId, id, change);
    if (!updated) throw new AuthError("API_KEY_NOT_FOUND");
    return presentApiKey(ctx.auth, updated);
  },
});
