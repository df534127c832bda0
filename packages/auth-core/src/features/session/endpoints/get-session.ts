import { getSessionContract } from "../../../contracts/session.ts";
import type { SessionWithUser } from "../../../http/caller.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { serializedJson } from "../../../http/endpoint-outcome.ts";
import { cachedSessionJson } from "../service.ts";
import { type Session, toSession, toUser, type User } from "../types.ts";

/**
 * "Who is this?": the caller the engine resolved (contract auth "optional": the cookies' session or,
 * with `apiKey.enableSessionForAPIKeys`, the key's user), or null when signed out — 200 either way.
 */
export const getSession = defineEndpoint(getSessionContract, {
  sessionRead: (query) => ({
    useCookieCache: query.disableCookieCache !== true,
    disableRefresh: query.disableRefresh === true,
  }),
  // The request this endpoint exists to make cheap: the engine answers it without a promise.
  answerCached: (ctx) => answerCaller(ctx.session),
  async handler(ctx) {
    return answerCaller(ctx.session);
  },
});

function answerCaller(found: SessionWithUser | null): { session: Session; user: User } | null {
  if (!found) return null;
  // A cookie-cache hit carries this answer's JSON, signed: sent as it is, not rebuilt.
  const json = cachedSessionJson(found);
  return json === undefined ? toAnswer(found) : serializedJson(json, toAnswer, found);
}

function toAnswer(found: SessionWithUser): { session: Session; user: User } {
  return { session: toSession(found.session), user: toUser(found.user) };
}
