import { getApiKeyContract } from "../../../contracts/api-key.ts";
import { parseId } from "../../../db/ids.ts";
import { AuthError } from "../../../errors/auth-error.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { findUserApiKey, presentApiKey } from "../service.ts";
import type { ApiKey } from "../types.ts";

/** GET /api-key/get?id — the caller's own key; another user's, a missing or a malformed id: 404 (K3). */
export const getApiKeyEndpoint = defineEndpoint(getApiKeyContract, {
  sensitive: true,
  async handler(ctx): Promise<ApiKey> {
    const id = parseId(ctx.query.id);
    const doc = id ? await findUserApiKey(ctx.auth, ctx.session!.user._id, id) : null;
    if (!doc) throw new AuthError("API_KEY_NOT_FOUND");
    return presentApiKey(ctx.auth, doc);
  },
});
