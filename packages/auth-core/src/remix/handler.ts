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
