import type { AuthContext } from "../../context.ts";
import type { SessionDoc, UserDoc } from "../../db/documents.ts";
import { AuthError } from "../../errors/auth-error.ts";
import type { EndpointAuth } from "../../http/define-endpoint.ts";
import type { SessionWithUser } from "../session/index.ts";
import { checkApiKey } from "./verify-service.ts";

/**
 * `apiKey.enableSessionForAPIKeys`: a request carrying the key header is the key's user — no cookie
 * is set and no session row exists. http/run-endpoint.ts calls these two functions.
 */

/** The caller of a request authenticated by an API key; `session` is synthesised from the key. */
class ApiKeySession implements SessionWithUser {
  readonly fromCache = false;
  readonly session: SessionDoc;
  readonly user: UserDoc;

  constructor(session: SessionDoc, user: UserDoc) {
    this.session = session;
    this.user = user;
  }
}

/**
 * Null when the feature is off or the request has no key header; throws the key's the error catalogue error
 * when the key is refused (an explicit credential that fails is not silently ignored). Each such
 * request counts one use and one rate-limit hit of the key. The key is read from the header only,
 * never from a query parameter (matrix K: URLs end up in logs and Referer headers).
 */
export async function readApiKeySession(
  auth: AuthContext,
  headers: Headers,
  deadlineMs = Number.POSITIVE_INFINITY,
): Promise<SessionWithUser | null> {
  const config = auth.options.apiKey;
  if (!config.enableSessionForAPIKeys) return null;
  const presented = headers.get(config.header);
  if (presented === null) return null;
  const check = await checkApiKey(auth, presented.trim(), undefined, deadlineMs);
  if (!check.valid) throw new AuthError(check.refusal.code, { details: check.refusal.details });
  const { key, user } = check;
  const now = auth.now();
  return new ApiKeySession(
    {
      _id: key._id,
      userId: key.userId,
      // Never the key itself: get-session-like answers must not echo a credential.
      token: "",
      expiresAt: key.expiresAt ?? new Date(now.getTime() + auth.options.session.expiresIn * 1000),
      createdAt: key.createdAt,
      updatedAt: key.updatedAt,
      ipAddress: null,
      userAgent: null,
      activeOrganizationId: null,
      dontRemember: true,
    },
    user,
  );
}

/** A caller authenticated by an API key: there is no session row to write anything to. */
export function isApiKeySession(caller: SessionWithUser): boolean {
  return caller instanceof ApiKeySession;
}

/**
 * An API key is a standing credential, not a fresh proof of the user's presence: it never counts
 * as fresh (403 "Session is not fresh" on fresh-session endpoints), and sensitive endpoints
 * (change-password, delete-user, revoke-*, admin, API-key management…) refuse it with 403
 * "Not authorized". Server-only endpoints never see it (see run-endpoint).
 */
export function assertApiKeyCallerAllowed(endpoint: { auth: EndpointAuth; sensitive?: boolean }): void {
  if (endpoint.auth === "fresh-session") throw new AuthError("SESSION_NOT_FRESH");
  if (endpoint.sensitive) throw new AuthError("NOT_AUTHORIZED");
}
