import { PassThrough } from "node:stream";
import type {
  AppLoadContext,
  EntryContext,
  HandleDataRequestFunction,
  HandleErrorFunction,
} from "@remix-run/node";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { isRouteErrorResponse, RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { getAuth } from "./auth.server";
import { I18nProvider, isLanguageCode } from "./lib/i18n";
import { resolveLanguage, translatorFor } from "./lib/i18n.server";
import { NonceProvider } from "./lib/nonce";
import { applySecurityHeaders, createNonce } from "./lib/security-headers.server";

/**
 * For server.js, which cannot import the core's TypeScript source: the check of forms sent from
 * another site, and the warning of a start with TESSERA_MAIL=disabled.
 */
export { MAIL_DISABLED_WARNING } from "@tessera/auth-core";
export { CROSS_SITE_REFUSED_PATH, isCrossSiteForm } from "@tessera/auth-core/remix";
/** Called by server.js before it listens: database, migrations and demo data are ready first. */
export { getAppAuth as startApp } from "./auth.server";

const ABORT_DELAY = 5_000;

async function headerOptions(nonce?: string) {
  const auth = await getAuth();
  return { nonce, sessionCookie: auth.context.cookies.sessionToken, isDevelopment: import.meta.env.DEV };
}

/** Route data (`.data` requests of client navigations and fetchers) is as personal as its page. */
export const handleDataRequest: HandleDataRequestFunction = async (response, { request }) => {
  applySecurityHeaders(request, response.headers, await headerOptions());
  return response;
};

/**
 * A URL that matches no route is the visitor's mistake, not the app's: one short line without a
 * stack (Remix's default prints "No route matches URL" with its stack). The query string stays out
 * of the log: it may carry a token. Every other error keeps its stack.
 */
export const handleError: HandleErrorFunction = (error, { request }) => {
  if (request.signal.aborted) return;
  if (isRouteErrorResponse(error) && error.status === 404) {
    console.warn(`404 ${request.method} ${new URL(request.url).pathname}`);
    return;
  }
  // Remix keeps the thrown Error of its own error responses in a private `error` field.
  const cause = isRouteErrorResponse(error) ? (error as { error?: unknown }).error : undefined;
  console.error(cause ?? error);
};

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  _loadContext: AppLoadContext,
) {
  // The root loader decided the language (user, cookie, Accept-Language). Without its data (a URL no
  // route matches, a root loader that failed) the error page speaks what the visitor asked for.
  const rootData = remixContext.staticHandlerContext.loaderData.root as { lang?: unknown } | undefined;
  const lang = isLanguageCode(rootData?.lang) ? rootData.lang : resolveLanguage(request);
  const waitForAll = isbot(request.headers.get("user-agent") ?? "");
  const nonce = createNonce();
  applySecurityHeaders(request, responseHeaders, await headerOptions(nonce));
  return new Promise((resolve, reject) => {
    let shellRendered = false;
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <I18nProvider value={{ lang, t: translatorFor(lang) }}>
          <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} nonce={nonce} />
        </I18nProvider>
      </NonceProvider>,
      {
        nonce,
        [waitForAll ? "onAllReady" : "onShellReady"]() {
          shellRendered = true;
          const body = new PassThrough();
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          responseHeaders.set("X-Frame-Options", "DENY");
          responseHeaders.set("Referrer-Policy", "same-origin");
          resolve(
            new Response(createReadableStreamFromReadable(body), {
              headers: responseHeaders,
              status: responseStatusCode,
            }),
          );
          pipe(body);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) console.error(error);
        },
      },
    );
    setTimeout(abort, ABORT_DELAY);
  });
}
