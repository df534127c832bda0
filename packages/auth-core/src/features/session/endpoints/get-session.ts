import { getSessionContract } from "../../../contracts/session.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { serializedJson } from "../../../http/run-endpoint.ts";
import { cachedSessionJson, readSession } from "../service.ts";
import { type Session, toSession, toUser, type User } from "../types.ts";

export const getSession = defineEndpoint(getSessionContract, {
  async handler(ctx): Promise<{ session: Session; user: User } | null> {
    // "Who is this?" for a caller holding an API key (`apiKey.enableSessionForAPIKeys`): this
    // endpoint reads no session through run-endpoint, so it asks for the key's caller itself.
    const viaKey = await ctx.readApiKeyCaller();
    if (viaKey) return { session: toSession(viaKey.session), user: toUser(viaKey.user) };
    const found = await readSession(ctx.auth, ctx.cookies, {
      useCookieCache: ctx.query.disableCookieCache !== true,
      disableRefresh: ctx.query.disableRefresh === true,
    });
    if (!found) return null;
    const build = () => ({ session: toSession(found.session), user: toUser(found.user) });
    // A cookie-cache hit carries this answer's JSON, signed: sent as it is, not rebuilt.
    const json = cachedSessionJson(found);
    return json === undefined ? build() : serializedJson(json, build);
  },
});
