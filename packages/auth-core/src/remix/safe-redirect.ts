/**
 * Where a `redirectTo`/`next` value may send the browser: a path on this site, or the fallback.
 * The value is read the way a browser reads a Location header or a link — WHATWG URL parsing
 * against a placeholder origin, which drops TAB/LF/CR and turns `\` into `/` — and kept only when it
 * stays on that origin (docs/security.md, "Redirects to other sites"); a sign-in page reads its `redirectTo` with it. Pattern checks on the raw text miss what
 * the parser repairs: `/\t/evil.example` is `//evil.example` to a browser.
 */
const PLACEHOLDER_ORIGIN = "http://redirect-check.invalid";

export function safeRedirect(to: unknown, fallback = "/"): string {
  // Only a path: an absolute URL naming the placeholder origin must not pass as "same origin".
  if (typeof to !== "string" || !to.startsWith("/")) return fallback;
  let url: URL;
  try {
    url = new URL(to, PLACEHOLDER_ORIGIN);
  } catch {
    return fallback;
  }
  if (url.origin !== PLACEHOLDER_ORIGIN) return fallback;
  const path = url.pathname + url.search + url.hash;
  // Dot segments can leave an empty first segment (`/.//evil.example` → `//evil.example`), which a
  // browser would read as another host.
  return path.startsWith("//") ? fallback : path;
}
