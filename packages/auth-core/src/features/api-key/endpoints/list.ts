import { listApiKeysContract } from "../../../contracts/api-key.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { countUserApiKeys, listUserApiKeys, presentApiKey } from "../service.ts";
import type { ApiKeyList } from "../types.ts";

/**
 * GET /api-key/list ?limit&offset → the caller's keys, newest first, at most 100 a page
 * (docs/decisions/0012-organizations.md "listings paginate"), with the total (Better Auth's `{apiKeys,total,limit,offset}`).
 */
export const listApiKeysEndpoint = defineEndpoint(listApiKeysContract, {
  sensitive: true,
  async handler(ctx): Promise<ApiKeyList> {
    const userId = ctx.session!.user._id;
    const page = { limit: ctx.query.limit ?? 100, offset: ctx.query.offset ?? 0 };
    const [docs, total] = await Promise.all([
      listUserApiKeys(ctx.auth, userId, page),
      countUserApiKeys(ctx.auth, userId),
    ]);
    const apiKeys = await Promise.all(docs.map((doc) => presentApiKey(ctx.auth, doc)));
    return { apiKeys, total, ...page };
  },
});
