import type { AuthContext } from "../context.ts";
import type { EndpointAuth } from "../contracts/contract.ts";
import type { SessionDoc, UserDoc } from "../db/documents.ts";
import type { CookieJar } from "./cookie-jar.ts";

/** What endpoints see of the signed-in caller: the documents, as read from the database or cache. */
export interface SessionWithUser {
  session: SessionDoc;
  user: UserDoc;
  /** True when it came from the signed cookie cache rather than the database. */
  fromCache: boolean;
}

export interface ReadSessionOptions {
  useCookieCache: boolean;
  disableRefresh: boolean;
}

/**
 * The ways of resolving a request's caller. http/ knows no feature (docs/architecture.md, "Feature
 * faces"): create-auth.ts hands these in from the session and api-key faces when it builds the
 * handler and `auth.api`. Plain functions taking the context, so a request allocates nothing for them.
 */
export interface CallerResolvers {
  /** The API-key caller (`apiKey.enableSessionForAPIKeys`); null without the header or when off. */
  readApiKeySession(auth: AuthContext, headers: Headers, deadlineMs: number): Promise<SessionWithUser | null>;
  /** Throws when an endpoint refuses an API-key caller (before the key is read). */
  assertApiKeyCallerAllowed(endpoint: { auth: EndpointAuth; sensitive?: boolean | undefined }): void;
  /** The session of the cookies; null when signed out. */
  readSession(
    auth: AuthContext,
    jar: CookieJar,
    options: ReadSessionOptions,
  ): Promise<SessionWithUser | null>;
  /**
   * The session the signed cookie cache vouches for, at once (no database command); null when there
   * is no valid cache, and then nothing was changed. The engine's synchronous branch
   * (run-endpoint.ts answerFromCookieCache) asks it before anything else.
   */
  readCachedSession(auth: AuthContext, jar: CookieJar): SessionWithUser | null;
  isSessionFresh(session: { updatedAt: Date }, now: Date, freshAge: number): boolean;
}
