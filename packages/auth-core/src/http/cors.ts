import { isPromise, type MaybePromise } from "./maybe-promise.ts";

/**
 * CORS for browsers on other trusted origins (docs/client.md "CORS"): an app on
 * https://app.example.com calling the API on https://auth.example.com with cookies. Only an Origin
 * the origin matcher trusts (the base URL's and `trustedOrigins`) gets CORS headers, and it gets
 * itself back — never `*`, which browsers refuse with credentials and which would hand the session
 * to any site. Any other origin gets none, so the browser withholds the answer from its page.
 * Every answer varies by Origin, so a cache never serves one origin's headers to another.
 */
const CORS_MAX_AGE_SECONDS = 600;
const ALLOWED_METHODS = "GET, POST";

/** The engine's request and answer (handler.ts), as much of them as CORS reads and writes. */
interface CorsRequest {
  method: string;
  headers: Headers;
}
interface CorsReply {
  status: number;
  headers: Record<string, string>;
  setCookies: string[];
  body: string | Uint8Array | null;
}

export interface CorsOptions {
  isTrustedOrigin(origin: string): boolean;
  /** Request headers a page may send besides the simple ones: the JSON content type and the API-key header. */
  allowedHeaders: readonly string[];
}

function addVary(headers: Record<string, string>): void {
  const vary = headers.vary;
  headers.vary = vary && !/\borigin\b/i.test(vary) ? `${vary}, Origin` : (vary ?? "Origin");
}

export function withCors<Request extends CorsRequest, Reply extends CorsReply>(
  engine: (request: Request) => MaybePromise<Reply>,
  options: CorsOptions,
): (request: Request) => MaybePromise<Reply | CorsReply> {
  const allowHeaders = options.allowedHeaders.join(", ");
  return (request) => {
    const origin = request.headers.get("origin");
    const trusted = origin !== null && options.isTrustedOrigin(origin);
    const isPreflight = request.method === "OPTIONS" && request.headers.has("access-control-request-method");
    if (isPreflight && trusted) {
      const reply: CorsReply = {
        status: 204,
        headers: {
          "access-control-allow-origin": origin,
          "access-control-allow-credentials": "true",
          "access-control-allow-methods": ALLOWED_METHODS,
          "access-control-allow-headers": allowHeaders,
          "access-control-max-age": String(CORS_MAX_AGE_SECONDS),
          // Every answer of the handler carries it (docs/security.md "Response headers").
          "x-content-type-options": "nosniff",
        },
        setCookies: [],
        body: null,
      };
      addVary(reply.headers);
      return reply;
    }
    const reply = engine(request);
    const corsOrigin = trusted && !isPreflight ? origin : null;
    return isPromise(reply)
      ? reply.then((value) => addCorsHeaders(value, corsOrigin))
      : addCorsHeaders(reply, corsOrigin);
  };
}

/** `origin`: the trusted Origin the answer is for, null for none. */
function addCorsHeaders<Reply extends CorsReply>(reply: Reply, origin: string | null): Reply {
  if (origin !== null) {
    reply.headers["access-control-allow-origin"] = origin;
    reply.headers["access-control-allow-credentials"] = "true";
    // The client reads X-Retry-After to wait out a 429 before retrying.
    reply.headers["access-control-expose-headers"] = "Retry-After, X-Retry-After";
  }
  addVary(reply.headers);
  return reply;
}
