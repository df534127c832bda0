import { getSessionContract } from "../../../contracts/session.ts";
import type { SessionWithUser } from "../../../http/caller.ts";
import type { EndpointContext } from "../../../http/define-endpoint.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { andThen, type MaybePromise } from "../../../http/maybe-promise.ts";
import { serializedJson } from "../../../http/run-endpoint.ts";
import { cachedSessionJson, readSession } from "../service.ts";
import { type Session, toSession, toUser, type User } from "../types.ts";

type GetSessionResult = { session: Session; user: User } | null;

export const getSession = defineEndpoint(getSessionContract, {
  // Not `async`: a cookie-cache hit answers without a promise (http/maybe-promise.ts), and that hit
  // is the request this endpoint exists to make cheap.
  handler(ctx): MaybePromise<GetSessionResult> {
    // "Who is this?" for a caller holding an API key (`apiKey.enableSessionForAPIKeys`): this
    // endpoint reads no session through run-endpoint, so it asks for the key's caller itself.
    return andThen(ctx.readApiKeyCaller(), (viaKey) => {
      if (viaKey) return { session: toSession(viaKey.session), user: toUser(viaKey.user) };
      return andThen(readCookieSession(ctx), answerSession);
    });
  },
});

function readCookieSession(
  ctx: EndpointContext<unknown, { disableCookieCache?: boolean; disableRefresh?: boolean }>,
): MaybePromise<SessionWithUser | null> {
  return readSession(ctx.auth, ctx.cookies, {
    useCookieCache: ctx.query.disableCookieCache !== true,
    disableRefresh: ctx.query.disableRefresh === true,
  });
}

function answerSession(found: SessionWithUser | null): GetSessionResult {
  if (!found) return null;
  const build = () => ({ session: toSession(found.session), user: toUser(found.user) });
  // A cookie-cache hit carries this answer's JSON, signed: sent as it is, not rebuilt.
  const json = cachedSessionJson(found);
  return json === undefined ? build() : serializedJson(json, build);
}
