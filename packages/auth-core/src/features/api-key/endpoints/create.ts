import { createApiKeyContract } from "../../../contracts/api-key.ts";
import { AuthError } from "../../../errors/auth-error.ts";
import { answerRefusal } from "../../../errors/refusal.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { findUserById } from "../../users/index.ts";
import { createApiKey } from "../service.ts";
import type { CreatedApiKey } from "../types.ts";
import { resolveNewKeyOwner } from "./guards.ts";

/**
 * POST /api-key/create {name?, prefix?, expiresIn?, metadata?} → the key with its full `key`, shown
 * this once. Limits, permissions and userId are server-only (guards.ts). Reads the session from the
 * database (sensitive), and an API-key caller cannot mint keys. A key for the caller's own session
 * needs a fresh session and is revoked when the user signs out everywhere (guards.ts NewKeyOwner).
 */
export const createApiKeyEndpoint = defineEndpoint(createApiKeyContract, {
  sensitive: true,
  async handler(ctx): Promise<CreatedApiKey> {
    const owner = resolveNewKeyOwner(ctx, ctx.body);
    // A server call naming a user: that user must exist (a session's user was just read).
    if (!owner.fromSession && !(await findUserById(ctx.auth.collections, owner.userId))) {
      throw new AuthError("USER_NOT_FOUND");
    }
    const { userId: _ignored, ...input } = ctx.body;
    return answerRefusal(await createApiKey(ctx.auth, owner.userId, input, owner.fromSession));
  },
});
