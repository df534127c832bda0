/**
 * Responses a loader or action returns or throws. Plain Web `Response`s: Remix 2 and React Router 7
 * treat a thrown or returned Response the same way, so this entry needs neither package.
 */

/** Anything that carries Set-Cookie lines: an `auth.api` result, a Response, or Headers. */
export type CookieSource = Headers | { headers: Headers } | null | undefined;

function headersOf(source: CookieSource): Headers | null {
  if (!source) return null;
  return source instanceof Headers ? source : source.headers;
}

/** The Set-Cookie lines of every source, in order, as one Headers (for a redirect or a data answer). */
export function mergeCookies(...sources: CookieSource[]): Headers {
  const out = new Headers();
  for (const source of sources) {
    for (const cookie of headersOf(source)?.getSetCookie() ?? []) out.append("Set-Cookie", cookie);
  }
  return out;
}

/**
 * A 302 to `location` carrying the Set-Cookie lines of the sources — the answer of an action after
 * `auth.api.signInEmail` and the like, whose cookies must reach the browser.
 */
export function redirectWithCookies(location: string, ...sources: CookieSource[]): Response {
  const headers = mergeCookies(...sources);
  headers.set("Location", location);
  return new Response(null, { status: 302, headers });
}

/** A plain-text refusal a route's error boundary can show (403 forbidden, 404 not found…). */
export function refusal(status: number, text: string): Response {
  return new Response(text, { status, headers: { "Content-Type": "text/plain; charset=utf-8" } });
}
