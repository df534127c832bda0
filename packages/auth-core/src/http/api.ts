import type { z } from "zod";
import type { AuthContext } from "../context.ts";
import { isCausedByDatabaseOutage } from "../db/connect.ts";
import { AuthError, isAuthError } from "../errors/auth-error.ts";
import type { CallerResolvers } from "./caller.ts";
import { compileTrustedProxies, resolveClientIp } from "./client-ip.ts";
import { deadlineOf, withinRequestTimeout } from "./deadline.ts";
import type {
  AnyEndpoint,
  EndpointDefinition,
  EndpointResult,
  HtmlResult,
  RedirectResult,
} from "./define-endpoint.ts";
import { TOKEN_SAFE_HEADERS } from "./handler.ts";
import { hitRateLimit, type RateLimiter } from "./rate-limit.ts";
import { runEndpoint } from "./run-endpoint.ts";

export interface ApiCallInput {
  body?: unknown;
  query?: Record<string, unknown>;
  params?: Record<string, string>;
  headers?: HeadersInit;
  /** The browser's socket address, when the app has it: recorded on sessions as over HTTP. */
  remoteAddress?: string | null;
  /** Count the call against the endpoint's HTTP rate limit for the address (TypedCallInput.rateLimit). */
  rateLimit?: boolean;
}

export interface ApiResult<T = unknown> {
  data: T;
  status: number;
  /** Response headers to forward, notably Set-Cookie (use `headers.getSetCookie()`), and Location for redirects. */
  headers: Headers;
}

type ApiMethod = (input?: ApiCallInput) => Promise<ApiResult>;

/**
 * What `auth.api.<name>` takes for one endpoint: its body and query as their schemas accept them
 * (validated at run time all the same — a wrong shape from untyped code is a 400 AuthError).
 */
export type TypedCallInput<Body, Query> = BodyField<Body> & {
  query?: Query;
  params?: Record<string, string>;
  headers?: HeadersInit;
  /**
   * The browser's socket address (a Remix load context's), read with the same trusted-proxy rules
   * as `auth.handler`: sessions an action creates then show where they were signed in from.
   */
  remoteAddress?: string | null;
  /**
   * A call made on a browser's behalf (a form action): it counts against the endpoint's HTTP rate
   * limit for `remoteAddress`, in the same buckets as `auth.handler`, and an exhausted limit throws
   * AuthError TOO_MANY_REQUESTS (429) with `details.retryAfter` in seconds. Off by default: the
   * app's own calls are not limited.
   */
  rateLimit?: boolean;
};

/** An object with no properties: it extends a body type only when every field is optional. */
type NoFields = Record<never, never>;

/** `body` may be left out only when the endpoint's schema accepts an empty one. */
type BodyField<Body> = NoFields extends Body ? { body?: Body } : { body: Body };

/**
 * The `data` of a call: the handler's JSON result; null for a redirect (its target is the
 * Location header); the page's HTML for a page.
 */
export type ApiData<Result> =
  | Exclude<Result, EndpointResult>
  | (Extract<Result, RedirectResult> extends never ? never : null)
  | (Extract<Result, HtmlResult> extends never ? never : string);

/** One endpoint's `auth.api` method. */
export type EndpointApiMethod<Endpoint> =
  Endpoint extends EndpointDefinition<infer Body, infer Query, infer Result>
    ? NoFields extends z.input<Body>
      ? (input?: TypedCallInput<z.input<Body>, z.input<Query>>) => Promise<ApiResult<ApiData<Result>>>
      : (input: TypedCallInput<z.input<Body>, z.input<Query>>) => Promise<ApiResult<ApiData<Result>>>
    : never;

/** `auth.api`: one typed method per endpoint, keyed by its name. */
export type TypedApi<Endpoint extends { name: string }> = {
  readonly [E in Endpoint as E["name"]]: EndpointApiMethod<E>;
};

/**
 * The server-side API: `auth.api.<name>({ body, query, headers })`. It runs the same endpoint code
 * as HTTP, and throws AuthError for client errors. Not rate limited: it is the app's own code.
 */
export function createApi<Endpoint extends { name: string }>(
  auth: AuthContext,
  endpoints: readonly AnyEndpoint[],
  callers: CallerResolvers,
  /** The HTTP rate limiter, for calls made with `rateLimit: true`; without it (the operator API) they are not limited. */
  rateLimiter?: RateLimiter,
): TypedApi<Endpoint> {
  const api: Record<string, ApiMethod> = {};
  const proxies = compileTrustedProxies(auth.options.advanced.trustedProxies);
  let warnedNoAddress = false;
  for (const endpoint of endpoints) {
    const method = typeof endpoint.method === "string" ? endpoint.method : endpoint.method[0]!;
    api[endpoint.name] = async (input = {}) => {
      const { requestTimeoutMs } = auth.options.advanced;
      const headers = new Headers(input.headers);
      // The same trusted-proxy rules as auth.handler: without a socket address, `trustedProxies: ["*"]`
      // still names the client from the forwarded header.
      const ip = resolveClientIp(
        input.remoteAddress ?? null,
        headers,
        proxies,
        auth.options.advanced.ipAddressHeader,
      );
      if (input.rateLimit && rateLimiter && ip === null && !warnedNoAddress) {
        warnedNoAddress = true;
        auth.options.logger.warn(NO_ADDRESS_FOR_LIMIT_WARNING);
      }
      // No address: not limited rather than one bucket for every visitor — a shared bucket would let
      // one client close the app's sign-in form for all (the per-account sign-in throttle still holds).
      if (input.rateLimit && rateLimiter && ip !== null) {
        const deadline = deadlineOf(requestTimeoutMs);
        const retryAfter = await hitRateLimit(auth, rateLimiter, ip, endpoint.path, deadline).catch(
          (error: unknown) => {
            throw toApiError(auth, error);
          },
        );
        if (retryAfter !== null) throw new AuthError("TOO_MANY_REQUESTS", { details: { retryAfter } });
      }
      const run = runEndpoint(auth, callers, endpoint, method, {
        body: input.body ?? {},
        query: input.query ?? {},
        params: input.params ?? {},
        headers,
        ip,
        isServerCall: true,
        deadlineMs: deadlineOf(requestTimeoutMs),
      });
      // runEndpoint never throws: its failures are rejections, caught below with the timeout's.
      const outcome = await withinRequestTimeout(Promise.resolve(run), requestTimeoutMs).catch(
        (error: unknown) => {
          throw toApiError(auth, error);
        },
      );
      // The same cache and referrer rules as over HTTP, for an app that forwards these headers.
      for (const [name, value] of Object.entries(TOKEN_SAFE_HEADERS)) outcome.headers.set(name, value);
      if (outcome.kind === "json")
        return { data: outcome.data, status: outcome.status, headers: outcome.headers };
      if (outcome.kind === "redirect") return { data: null, status: 302, headers: outcome.headers };
      return { data: outcome.html, status: outcome.status, headers: outcome.headers };
    };
  }
  // One method per endpoint, keyed by its name: the mapped type describes exactly what was built,
  // given that `Endpoint` is the type of `endpoints` (create-auth.ts passes CoreEndpoint).
  return api as TypedApi<Endpoint>;
}

const NO_ADDRESS_FOR_LIMIT_WARNING =
  "tessera: an auth.api call with rateLimit: true had no client address, so it was not rate limited " +
  "(one bucket for every visitor would let one client lock all out). Pass remoteAddress (the socket's, " +
  "e.g. from the Remix load context) or set advanced.trustedProxies for the forwarded header.";

/**
 * Server code gets the same typed errors as HTTP clients: catalogue errors as they are, an outage
 * as SERVICE_UNAVAILABLE, anything else logged and wrapped as INTERNAL_SERVER_ERROR (the original
 * stays on `cause` for the app's own logs).
 */
function toApiError(auth: AuthContext, error: unknown): AuthError {
  if (isAuthError(error)) return error;
  if (isCausedByDatabaseOutage(error)) return new AuthError("SERVICE_UNAVAILABLE", { cause: error });
  auth.options.logger.error("unexpected error in auth.api", error);
  return new AuthError("INTERNAL_SERVER_ERROR", { cause: error });
}
