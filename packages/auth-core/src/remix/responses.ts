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

/** A plain-text refusal a route's error boundary can show: `refusal(403, "Forbidden")`. */
export function refusal(status: number, reason: string): Response {
  return new Response(reason, {
    status,
    statusText: reason,
    headers: { "Content-Type": "text/plain; charset=utf-8" },
  });
}

/**
 * The request's headers with the cookies just set applied (a cookie cleared with `Max-Age=0` or an
 * empty value removed): for a second `auth.api` call in the same action, which must see the session
 * the first one created or ended.
 */
export function applyCookies(request: Request, ...sources: CookieSource[]): Headers {
  const headers = new Headers(request.headers);
  const jar = new Map<string, string>();
  for (const part of (request.headers.get("cookie") ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0) jar.set(part.slice(0, eq).trim(), part.slice(eq + 1).trim());
  }
  for (const line of mergeCookies(...sources).getSetCookie()) {
    const [pair = ""] = line.split(";");
    const eq = pair.indexOf("=");
    const name = pair.slice(0, eq).trim();
    const value = pair.slice(eq + 1).trim();
    if (/;\s*max-age=0\s*(;|$)/i.test(line) || value === "") jar.delete(name);
    else jar.set(name, value);
  }
  headers.set("cookie", [...jar].map(([name, value]) => `${name}=${value}`).join("; "));
  return headers;
}
