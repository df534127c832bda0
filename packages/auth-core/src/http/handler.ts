import type { AuthContext } from "../context.ts";
import { isDatabaseUnavailableError } from "../db/connect.ts";
import { AuthError, isAuthError } from "../errors/auth-error.ts";
import { rateLimitAddress, resolveClientIp } from "./client-ip.ts";
import type { AnyEndpoint } from "./define-endpoint.ts";
import { type RateLimiter, ruleForPath } from "./rate-limit.ts";
import { readRequestBody } from "./read-body.ts";
import { createRouter } from "./router.ts";
import { type EndpointOutcome, headersOfFailure, runEndpoint } from "./run-endpoint.ts";

export interface HandlerOptions {
  /** The socket's remote address, given by the server that received the request. */
  remoteAddress?: string | null;
}

export type AuthHandler = (request: Request, options?: HandlerOptions) => Promise<Response>;

export function jsonResponse(status: number, data: unknown, headers = new Headers()): Response {
  headers.set("content-type", "application/json; charset=utf-8");
  headers.set("cache-control", "no-store");
  return new Response(JSON.stringify(data), { status, headers });
}

/**
 * True when the database being unreachable is the root of the failure, also when a feature wrapped
 * the driver's error in a catalogue error (`FAILED_TO_CREATE_SESSION` with the driver error as cause).
 */
function isCausedByDatabaseOutage(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 8 && current instanceof Error; depth++) {
    if (isDatabaseUnavailableError(current)) return true;
    current = current.cause;
  }
  return false;
}

/**
 * Maps any failure to a response; internals of unexpected errors are logged, never sent. An outage
 * is 503 whatever wrapped it (matrix N1: a client can retry later, nothing was half-done on purpose).
 */
export function errorResponse(auth: AuthContext, error: unknown): Response {
  const headers = headersOfFailure(error) ?? new Headers();
  if (isCausedByDatabaseOutage(error)) {
    auth.options.logger.error("database unavailable", error);
    return jsonResponse(503, new AuthError("SERVICE_UNAVAILABLE").toJSON(), headers);
  }
  if (isAuthError(error)) {
    if (error.status >= 500) auth.options.logger.error(`${error.code}: ${error.message}`, error.cause);
    return jsonResponse(error.status, error.toJSON(), headers);
  }
  auth.options.logger.error("unexpected error", error);
  return jsonResponse(500, new AuthError("INTERNAL_SERVER_ERROR").toJSON(), headers);
}

function outcomeToResponse(outcome: EndpointOutcome): Response {
  if (outcome.kind === "json") return jsonResponse(outcome.status, outcome.data, outcome.headers);
  if (outcome.kind === "redirect") return new Response(null, { status: 302, headers: outcome.headers });
  return new Response(outcome.html, { status: outcome.status, headers: outcome.headers });
}

/** RFC 9110 §9.3.2: HEAD answers like GET — same status and headers — without the content. */
function withoutBody(response: Response): Response {
  return new Response(null, { status: response.status, headers: response.headers });
}

function methodNotAllowed(allow: readonly string[]): Response {
  const methods = allow.includes("GET") && !allow.includes("HEAD") ? [...allow, "HEAD"] : [...allow];
  const response = jsonResponse(405, new AuthError("METHOD_NOT_ALLOWED").toJSON());
  response.headers.set("allow", methods.join(", "));
  return response;
}

/** The one HTTP entry: `Request → Response` for everything under the base path. */
export function createHandler(
  auth: AuthContext,
  endpoints: readonly AnyEndpoint[],
  rateLimiter: RateLimiter,
): AuthHandler {
  const route = createRouter(endpoints.filter((endpoint) => endpoint.auth !== "server-only"));
  const { basePath } = auth.options;
  return async (request, options) => {
    const response = await handleRequest(request, options);
    return request.method === "HEAD" ? withoutBody(response) : response;
  };

  async function handleRequest(request: Request, options: HandlerOptions | undefined): Promise<Response> {
    try {
      const url = new URL(request.url);
      if (url.pathname !== basePath && !url.pathname.startsWith(`${basePath}/`))
        throw new AuthError("NOT_FOUND");
      const path = url.pathname.slice(basePath.length) || "/";
      const method = request.method === "HEAD" ? "GET" : request.method;
      const lookup = route(method, path);
      if (lookup.kind === "not-found") throw new AuthError("NOT_FOUND");
      if (lookup.kind === "method-not-allowed") return methodNotAllowed(lookup.allow);
      const { endpoint, params } = lookup.match;
      const ip = resolveClientIp(
        options?.remoteAddress ?? null,
        request.headers,
        auth.options.advanced.trustedProxies,
        auth.options.advanced.ipAddressHeader,
      );
      // Keyed on the route, not the raw path: `/reset-password/<token>` is one bucket, not one per token.
      const limited = await checkRateLimit(auth, rateLimiter, ip, endpoint.path);
      if (limited) return limited;
      const body =
        method === "GET"
          ? {}
          : await readRequestBody(request, auth.options.advanced.maxBodyBytes, endpoint.acceptsForm === true);
      const outcome = await runEndpoint(auth, endpoint, method, {
        body,
        query: Object.fromEntries(url.searchParams),
        params,
        headers: request.headers,
        ip,
        isServerCall: false,
      });
      return outcomeToResponse(outcome);
    } catch (error) {
      return errorResponse(auth, error);
    }
  }
}

async function checkRateLimit(
  auth: AuthContext,
  limiter: RateLimiter,
  ip: string | null,
  path: string,
): Promise<Response | null> {
  if (!auth.options.rateLimit.enabled) return null;
  const rule = ruleForPath(path, auth.options.rateLimit);
  if (!rule) return null;
  // No resolvable address: one shared bucket ("unknown"), so limits fail closed rather than open.
  const decision = await limiter.hit(`${rateLimitAddress(ip)}|${path}`, rule, auth.now());
  if (decision.allowed) return null;
  const response = jsonResponse(429, new AuthError("TOO_MANY_REQUESTS").toJSON());
  response.headers.set("x-retry-after", String(decision.retryAfterSeconds));
  return response;
}
