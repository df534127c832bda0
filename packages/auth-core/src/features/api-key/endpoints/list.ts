import { z } from "zod";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { presentApiKey } from "../service.ts";
import { countUserApiKeys, listUserApiKeys } from "../store.ts";
import type { ApiKey } from "../types.ts";

export interface ApiKeyList {
  apiKeys: ApiKey[];
  total: number;
  limit: number;
  offset: number;
}

/** Query numbers arrive as strings over HTTP and as numbers from server code. */
const pageNumber = z.coerce.number().int().min(0);

/**
 * GET /api-key/list ?limit&offset → the caller's keys, newest first, at most 100 a page
 * (DECISIONS.md "listings paginate"), with the total (Better Auth's `{apiKeys,total,limit,offset}`).
 */
export const listApiKeysEndpoint = defineEndpoint({
  name: "listApiKeys",
  method: "GET",
  path: "/api-key/list",
  auth: "session",
  sensitive: true,
  query: z.strictObject({ limit: pageNumber.max(100).optional(), offset: pageNumber.optional() }),
  async handler(ctx): Promise<ApiKeyList> {
    const userId = ctx.session!.user._id;
    const page = { limit: ctx.query.limit ?? 100, offset: ctx.query.offset ?? 0 };
    const [docs, total] = await Promise.all([
      listUserApiKeys(ctx.auth.collections, userId, page),
      countUserApiKeys(ctx.auth.collections, userId),
    ]);
    const apiKeys = await Promise.all(docs.map((doc) => presentApiKey(ctx.auth, doc)));
    return { apiKeys, total, ...page };
  },
});
