import { verifyApiKeyContract } from "../../../contracts/api-key.ts";
import { AuthError } from "../../../errors/auth-error.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { type ApiKeyVerification, toApiKey } from "../types.ts";
import { checkApiKey } from "../verify-service.ts";

/**
 * Server only: `auth.api.verifyApiKey({ body: { key, permissions? } })` → {valid, error, key}. A
 * refused key is an answer, not a throw (Better Auth's contract); each valid call counts one use.
 */
export const verifyApiKeyEndpoint = defineEndpoint(verifyApiKeyContract, {
  async handler(ctx): Promise<ApiKeyVerification> {
    const check = await checkApiKey(ctx.auth, ctx.body.key, ctx.body.permissions, ctx.deadlineMs);
    if (!check.valid) {
      const error = new AuthError(check.refusal.code, { details: check.refusal.details });
      return { valid: false, error: error.toJSON(), key: null };
    }
    return { valid: true, error: null, key: toApiKey(check.key, check.remaining) };
  },
});
