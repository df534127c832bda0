import { getSessionContract } from "../../../contracts/session.ts";
import type { SessionWithUser } from "../../../http/caller.ts";
import { defineEndpoint, type EndpointContext } from "../../../http/define-endpoint.ts";
import { isPromise, type MaybePromise } from "../../../http/maybe-promise.ts";
import { serializedJson } from "../../../http/run-endpoint.ts";
import { cachedSessionJson, readSession } from "../service.ts";
import { type Session, toSession, toUser, type User } from "../types.ts";

type GetSessionAnswer = { session: Session; user: User } | null;
type GetSessionContext = EndpointContext<unknown, { disableCookieCache?: boolean; disableRefresh?: boolean }>;

export const getSession = defineEndpoint(getSessionContract, {
  // Not `async`, and no closure on the way: a cookie-cache hit answers without a promise
  // (http/maybe-promise.ts), and that hit is the request this endpoint exists to make cheap.
  handler(ctx): MaybePromise<GetSessionAnswer> {
    // "Who is this?" for a caller holding an API key (`apiKey.enableSessionForAPIKeys`): this
    // endpoint reads no session through run-endpoint, so it asks for the key's caller itself.
    const viaKey = ctx.readApiKeyCaller();
    if (isPromise(viaKey)) return viaKey.then((caller) => answerCaller(ctx, caller));
    return answerCaller(ctx, viaKey);
  },
});

function answerCaller(
  ctx: GetSessionContext,
  viaKey: SessionWithUser | null,
): MaybePromise<GetSessionAnswer> {
  if (viaKey) return toAnswer(viaKey);
  const found = readSession(ctx.auth, ctx.cookies, {
    useCookieCache: ctx.query.disableCookieCache !== true,
    disableRefresh: ctx.query.disableRefresh === true,
  });
  return isPromise(found) ? found.then(answerSession) : answerSession(found);
}

function answerSession(found: SessionWithUser | null): GetSessionAnswer {
  if (!found) return null;
  // A cookie-cache hit carries this answer's JSON, signed: sent as it is, not rebuilt.
  const json = cachedSessionJson(found);
  return json === undefined ? toAnswer(found) : serializedJson(json, toAnswer, found);
}

function toAnswer(found: SessionWithUser): { session: Session; user: User } {
  return { session: toSession(found.session), user: toUser(found.user) };
}
