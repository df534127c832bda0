/**
 * `@tessera/auth-core/remix`: what a Remix 2 or React Router 7 (framework mode) app needs around
 * the core — the `/api/auth/*` resource route with the client's address, session guards that
 * redirect or refuse, and cookie-carrying redirects. Server-only (loaders and actions); plain Web
 * Request/Response, so it imports neither framework.
 *
 *     export const remix = createRemixAuth(getAuth, { signInPath: "/sign-in" });
 *     // app/routes/api.auth.$.ts
 *     export const loader = remix.handler;
 *     export const action = remix.handler;
 *     // a page
 *     const { user } = await remix.requireSession(request);
 */

import { createOnBehalfOf, createRouteHandler, type RouteArgs } from "./handler.ts";
import { applyCookies, mergeCookies, redirectWithCookies, refusal } from "./responses.ts";
import {
  type AuthSource,
  createSessionHelpers,
  type SessionHelperOptions,
  sessionForClient,
} from "./session.ts";

export type { IncomingForm } from "./cross-site.ts";
export { CROSS_SITE_REFUSED_PATH, isCrossSiteForm } from "./cross-site.ts";
export type { BrowserCall, RouteArgs } from "./handler.ts";
export { remoteAddressOf } from "./handler.ts";
export type { CookieSource } from "./responses.ts";
export { applyCookies, mergeCookies, redirectWithCookies, refusal } from "./responses.ts";
export { safeRedirect } from "./safe-redirect.ts";
export type { AuthSource, ClientSession, Permissions, SessionHelperOptions } from "./session.ts";
export { sessionForClient } from "./session.ts";

export interface RemixAuthOptions extends SessionHelperOptions {
  /**
   * The client's address for a request; by default the load context's `remoteAddress` (see
   * remoteAddressOf). Return null when unknown: the core then reads trusted proxy headers.
   */
  remoteAddress?: (args: RouteArgs) => string | null;
}

/** The helpers bound to one auth instance (or the app's `getAuth`). */
export function createRemixAuth(source: AuthSource, options: RemixAuthOptions = {}) {
  return {
    handler: createRouteHandler(source, options.remoteAddress),
    onBehalfOf: createOnBehalfOf(options.remoteAddress),
    ...createSessionHelpers(source, options),
    sessionForClient,
    redirectWithCookies,
    mergeCookies,
    applyCookies,
    refusal,
  };
}

export type RemixAuth = ReturnType<typeof createRemixAuth>;
