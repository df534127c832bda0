import { z } from "zod";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { permissionsField } from "../schemas.ts";
import type { ApiKey } from "../types.ts";
import { toApiKey } from "../types.ts";
import { checkApiKey } from "../verify-service.ts";

export interface ApiKeyVerification {
  valid: boolean;
  error: { code: string; message: string } | null;
  key: ApiKey | null;
}

/**
 * Server only: `auth.api.verifyApiKey({ body: { key, permissions? } })` → {valid, error, key}. A
 * refused key is an answer, not a throw (Better Auth's contract); each valid call counts one use.
 */
export const verifyApiKeyEndpoint = defineEndpoint({
  name: "verifyApiKey",
  method: "POST",
  path: "/api-key/verify",
  auth: "server-only",
  body: z.strictObject({ key: z.string().max(4096), permissions: permissionsField.optional() }),
  async handler(ctx): Promise<ApiKeyVerification> {
    const check = await checkApiKey(ctx.auth, ctx.body.key, ctx.body.permissions, ctx.deadlineMs);
    if (!check.valid) return { valid: false, error: check.error.toJSON(), key: null };
    return { valid: true, error: null, key: toApiKey(check.key, check.remaining) };
  },
});
