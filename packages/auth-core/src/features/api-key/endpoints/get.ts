import { z } from "zod";
import { parseId } from "../../../db/ids.ts";
import { AuthError } from "../../../errors/auth-error.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { keyIdField } from "../schemas.ts";
import { presentApiKey } from "../service.ts";
import { findUserApiKey } from "../store.ts";
import type { ApiKey } from "../types.ts";

/** GET /api-key/get?id — the caller's own key; another user's, a missing or a malformed id: 404 (K3). */
export const getApiKeyEndpoint = defineEndpoint({
  name: "getApiKey",
  method: "GET",
  path: "/api-key/get",
  auth: "session",
  sensitive: true,
  query: z.strictObject({ id: keyIdField }),
  async handler(ctx): Promise<ApiKey> {
    const id = parseId(ctx.query.id);
    const doc = id ? await findUserApiKey(ctx.auth.collections, ctx.session!.user._id, id) : null;
    if (!doc) throw new AuthError("API_KEY_NOT_FOUND");
    return presentApiKey(ctx.auth, doc);
  },
});
