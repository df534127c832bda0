import { type AuthSource, resolveAuth } from "./session.ts";

/** What Remix and React Router hand a loader or action: the request and the app's load context. */
export interface RouteArgs {
  request: Request;
  context?: unknown;
}

/**
 * The client's address from the load context: the app's server puts the socket's there
 * (`getLoadContext: (req) => ({ remoteAddress: req.socket.remoteAddress })` with Express). Null
 * when the context has none: the core then applies `advanced.trustedProxies` to the forwarded
 * headers, and says once that all such requests share one rate-limit bucket when it cannot.
 */
export function remoteAddressOf(args: RouteArgs): string | null {
  const context = args.context as { remoteAddress?: unknown } | null | undefined;
  const address = context?.remoteAddress;
  return typeof address === "string" && address !== "" ? address : null;
}

/**
 * The resource route of `/api/auth/*` (a splat route, `export const loader = handler; export const
 * action = handler;`): the core's Fetch handler with the client's address.
 */
export function createRouteHandler(
  source: AuthSource,
  addressOf: (args: RouteArgs) => string | null = remoteAddressOf,
) {
  return async function handler(args: RouteArgs): Promise<Response> {
    const auth = await resolveAuth(source);
    return auth.handler(args.request, { remoteAddress: addressOf(args) });
  };
}

/** What an action passes to `auth.api` when it calls on the browser's behalf (onBehalfOf). */
export interface BrowserCall {
  headers: Headers;
  remoteAddress: string | null;
  rateLimit: true;
}

/**
 * `auth.api.signInEmail({ body, ...remix.onBehalfOf(args) })`: the request's headers (its cookies
 * and Origin), the client's address, and the endpoint's HTTP rate limit for that address — a form
 * action is as limited as the same call over HTTP, so one visitor cannot try passwords faster
 * through the app's own form, nor use up another visitor's limit. A limited call throws AuthError
 * TOO_MANY_REQUESTS (429).
 */
export function createOnBehalfOf(addressOf: (args: RouteArgs) => string | null = remoteAddressOf) {
  return (args: RouteArgs): BrowserCall => ({
    headers: args.request.headers,
    remoteAddress: addressOf(args),
    rateLimit: true,
  });
}
