import { z } from "zod";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { resolveKeyOwner } from "../owner.ts";
import {
  expiresInField,
  limitFields,
  metadataField,
  nameField,
  prefixField,
  refillComplete,
} from "../schemas.ts";
import { createApiKey } from "../service.ts";
import type { CreatedApiKey } from "../types.ts";

/**
 * POST /api-key/create {name?, prefix?, expiresIn?, metadata?} → the key with its full `key`, shown
 * this once. Limits, permissions and userId are server-only (owner.ts). Reads the session from the
 * database (sensitive), and an API-key caller cannot mint keys.
 */
export const createApiKeyEndpoint = defineEndpoint({
  name: "createApiKey",
  method: "POST",
  path: "/api-key/create",
  auth: "optional",
  sensitive: true,
  body: z
    .strictObject({
      name: nameField.optional(),
      prefix: prefixField.optional(),
      expiresIn: expiresInField.nullable().optional(),
      metadata: metadataField.nullable().optional(),
      ...limitFields,
    })
    .refine(refillComplete, {
      message: "refillAmount and refillInterval go together",
      path: ["refillAmount"],
    }),
  async handler(ctx): Promise<CreatedApiKey> {
    const userId = resolveKeyOwner(ctx, ctx.body);
    const { userId: _ignored, ...input } = ctx.body;
    return createApiKey(ctx.auth, userId, input);
  },
});
