import type { AuthContext } from "../context.ts";
import { AuthError } from "../errors/auth-error.ts";
import { isSessionFresh } from "../features/session/rules.ts";
import { readSession } from "../features/session/service.ts";
import type { SessionWithUser } from "../features/session/types.ts";
import { assertCallbackURLsTrusted } from "./callback-urls.ts";
import { CookieJar } from "./cookie-jar.ts";
import {
  type AnyEndpoint,
  ENDPOINT_RESULT,
  type EndpointContext,
  type EndpointResult,
} from "./define-endpoint.ts";
import { requestOrigin } from "./origins.ts";
import { validateInput } from "./validate-input.ts";

export interface EndpointInput {
  body: unknown;
  query: unknown;
  params: Record<string, string>;
  headers: Headers;
  ip: string | null;
  isServerCall: boolean;
}

export type EndpointOutcome =
  | { kind: "json"; status: number; data: unknown; headers: Headers }
  | { kind: "redirect"; status: 302; location: string; headers: Headers }
  | { kind: "html"; status: number; html: string; headers: Headers };

function isEndpointResult(value: unknown): value is EndpointResult {
  return typeof value === "object" && value !== null && ENDPOINT_RESULT in value;
}

/**
 * SPEC §5 / DECISIONS.md: a state-changing request that carries cookies must come from a trusted
 * origin. Over HTTP the Origin (or Referer) is required; a server call (auth.api) is trusted code
 * and is checked only when it forwards a browser's Origin. Without cookies (server to server) there
 * is nothing to forge — except when the browser itself declares the request cross-site (Fetch
 * Metadata): then the Origin must be trusted too, which blocks login CSRF (matrix F7).
 */
function assertOriginTrusted(auth: AuthContext, method: string, input: EndpointInput): void {
  if (method === "GET") return;
  const crossSite = input.headers.get("sec-fetch-site") === "cross-site";
  if (!input.headers.has("cookie") && !crossSite) return;
  const origin = requestOrigin(input.headers);
  if (origin === null && input.isServerCall && !crossSite) return;
  if (origin === null || !auth.origins.isTrustedOrigin(origin)) throw new AuthError("INVALID_ORIGIN");
}

async function resolveCaller(
  auth: AuthContext,
  endpoint: AnyEndpoint,
  jar: CookieJar,
): Promise<SessionWithUser | null> {
  if (endpoint.auth === "none") return null;
  const caller = await readSession(auth, jar, { useCookieCache: !endpoint.sensitive, disableRefresh: false });
  if (endpoint.auth === "optional" || endpoint.auth === "server-only") return caller;
  if (!caller) throw new AuthError("UNAUTHORIZED");
  if (
    endpoint.auth === "fresh-session" &&
    !isSessionFresh(caller.session, auth.now(), auth.options.session.freshAge)
  ) {
    throw new AuthError("SESSION_NOT_FRESH");
  }
  return caller;
}

/**
 * Runs one endpoint for both entries (HTTP handler and server API): validation, origin and
 * callback checks, session resolution, then the handler. Errors propagate as AuthError (or the raw
 * external failure) — each entry turns them into its own form. Cookies set before a failure are
 * carried on the error so an expired session's clearing still reaches the client.
 */
export async function runEndpoint(
  auth: AuthContext,
  endpoint: AnyEndpoint,
  method: string,
  input: EndpointInput,
): Promise<EndpointOutcome> {
  const jar = new CookieJar(input.headers.get("cookie"), {
    httpOnly: true,
    secure: auth.secureCookies,
    sameSite: "Lax",
    path: "/",
  });
  const headers = new Headers();
  const flushCookies = () => {
    for (const line of jar.setCookieLines()) headers.append("set-cookie", line);
  };
  try {
    assertOriginTrusted(auth, method, input);
    const query = validateInput(endpoint.query, input.query, endpoint.fieldErrors);
    const body = method === "GET" ? {} : validateInput(endpoint.body, input.body, endpoint.fieldErrors);
    assertCallbackURLsTrusted(auth, body, query);
    const session = await resolveCaller(auth, endpoint, jar);
    const ctx: EndpointContext<unknown, unknown> = {
      auth,
      body,
      query,
      params: input.params,
      headers: input.headers,
      ip: input.ip,
      session,
      isServerCall: input.isServerCall,
      cookies: jar,
      setHeader: (name, value) => headers.set(name, value),
    };
    const result = await endpoint.handler(ctx);
    flushCookies();
    if (isEndpointResult(result)) {
      if (result.kind === "redirect") {
        headers.set("location", result.location);
        return { kind: "redirect", status: 302, location: result.location, headers };
      }
      headers.set("content-type", "text/html; charset=utf-8");
      return { kind: "html", status: result.status, html: result.html, headers };
    }
    return { kind: "json", status: 200, data: result ?? null, headers };
  } catch (error) {
    flushCookies();
    throw Object.assign(error instanceof Error ? error : new Error(String(error)), {
      responseHeaders: headers,
    });
  }
}

/** Headers (Set-Cookie) gathered before an endpoint failed, when any. */
export function headersOfFailure(error: unknown): Headers | undefined {
  return (error as { responseHeaders?: Headers } | null)?.responseHeaders;
}
