/**
 * Trusted origins and callback-URL validation.
 * A callback-type URL is accepted when it is a safe relative path or an absolute http(s) URL whose
 * origin is trusted. Trusted patterns are exact origins, origins with `*` wildcards in the host, or
 * hosts without a scheme (https only).
 */
export interface OriginMatcher {
  isTrustedOrigin(origin: string): boolean;
  isAllowedCallbackURL(url: string): boolean;
}

/**
 * One leading `/`, then path characters only: rejects `//host`, `/\host`, encoded slashes and
 * backslashes (`%2f`, `%5c`), schemes and control characters — all open-redirect vectors.
 */
const SAFE_RELATIVE_PATH =
  /^\/(?![/\\])[\w\-.~+/@:!$&'()*,;=]*(?:\?[\w\-.~+/@:!$&'()*,;=%]*)?(?:#[\w\-.~+/=&%@]*)?$/;

/** @internal Exported for its unit test (origins.test.ts). */
export function isSafeRelativePath(value: string): boolean {
  if (!SAFE_RELATIVE_PATH.test(value)) return false;
  // Only the path decides where a browser goes; an encoded slash in the query (`?next=%2F`) is data.
  const path = value.split(/[?#]/, 1)[0] ?? "";
  return !/%2f|%5c/i.test(path) && !path.includes("//");
}

/**
 * Whitespace, control characters and backslashes are never part of a callback we issue. URL parsers
 * silently drop tabs and newlines and read `\` as `/`, so a value containing them can be read
 * differently by the check and by the browser (`java\tscript:`, `/\evil.com`): refuse them outright.
 */
function hasAmbiguousCharacters(url: string): boolean {
  for (const char of url) {
    const code = char.codePointAt(0) ?? 0;
    if (code < 0x20 || (code >= 0x7f && code <= 0x9f) || char === "\\" || /\s/u.test(char)) return true;
  }
  return false;
}

const DEFAULT_PORTS: Readonly<Record<string, string>> = { http: "80", https: "443" };

/**
 * A `trustedOrigins` entry in canonical form — lower-cased, default port dropped, a trailing `/`
 * removed (a browser's Origin never has one) — or null when it cannot be an origin pattern. Exact
 * http(s) URLs are trusted by their origin (exactOrigin). Patterns — `*` host wildcards
 * (`https://*.example.com`) and scheme-less hosts (https only) — refuse a path beyond `/`, a query,
 * a fragment, credentials, a scheme other than http(s) (an Origin header is never anything else
 * here: isTrustedOrigin refuses "null"), or `*` outside the host.
 * options.ts refuses a null at startup; the matcher never matches one.
 */
export function normalizeOriginPattern(entry: string): string | null {
  const exact = exactOrigin(entry);
  if (exact !== undefined) return exact;
  const parts = /^(?:(https?):\/\/)?([^/?#]+)\/?$/i.exec(entry);
  if (!parts) return null;
  const scheme = parts[1]?.toLowerCase();
  const authority = /^(\[[0-9a-f:.]+\]|[a-z0-9_*](?:[a-z0-9_.*-]*[a-z0-9_*])?)(?::(\d{1,5}))?$/i.exec(
    parts[2] ?? "",
  );
  if (!authority) return null;
  const host = (authority[1] ?? "").toLowerCase();
  const port = authority[2];
  if (port !== undefined && (Number(port) < 1 || Number(port) > 65535)) return null;
  const keptPort = port === undefined || port === DEFAULT_PORTS[scheme ?? "https"] ? "" : `:${Number(port)}`;
  if (scheme === undefined) return `${host}${keptPort}`;
  const pattern = `${scheme}://${host}${keptPort}`;
  if (host.includes("*")) return pattern;
  try {
    return new URL(pattern).origin;
  } catch {
    return null;
  }
}

/**
 * An exact http(s) URL is trusted by its origin, as the URL parser gives it: an internationalised
 * host becomes its punycode (what a browser sends), and a path is dropped (entries such as
 * `https://app.example.com/login` were always trusted for their origin). Credentials make it null.
 * Undefined when the entry is not an exact http(s) URL: the pattern rules below apply.
 */
function exactOrigin(entry: string): string | null | undefined {
  if (entry.includes("*") || !/^https?:\/\//i.test(entry)) return undefined;
  try {
    const url = new URL(entry);
    return url.username || url.password || url.port === "0" ? null : url.origin;
  } catch {
    return null;
  }
}

function compilePattern(entry: string): (origin: string) => boolean {
  const pattern = normalizeOriginPattern(entry);
  if (pattern === null) return () => false;
  if (!pattern.includes("://")) return compileHostPattern(pattern);
  if (!pattern.includes("*")) return (origin) => origin === pattern;
  // A wildcard matches within one host label sequence, never across the scheme or a port/path.
  const escaped = pattern
    .replace(/[.+?^${}()|[\]\\/]/g, "\\$&")
    .replace(/\*/g, "[a-z0-9-]+(?:\\.[a-z0-9-]+)*");
  const regex = new RegExp(`^${escaped}$`, "i");
  return (origin) => regex.test(origin);
}

/**
 * A pattern without a scheme (`*.example.com`, `app.example.com:8443`) matches the host (and port)
 * of an https origin — never plain http, which a network attacker could serve; write the scheme
 * (`http://*.example.test`) to trust http. `*` stands for one or more whole labels.
 */
function compileHostPattern(pattern: string): (origin: string) => boolean {
  const escaped = pattern
    .replace(/[.+?^${}()|[\]\\/]/g, "\\$&")
    .replace(/\*/g, "[a-z0-9-]+(?:\\.[a-z0-9-]+)*");
  const regex = new RegExp(`^${escaped}$`, "i");
  return (origin) => {
    let url: URL;
    try {
      url = new URL(origin);
    } catch {
      return false;
    }
    return url.protocol === "https:" && url.origin === origin && regex.test(url.host);
  };
}

export function createOriginMatcher(
  baseURL: string | undefined,
  trustedOrigins: readonly string[],
): OriginMatcher {
  const patterns = [...(baseURL ? [new URL(baseURL).origin] : []), ...trustedOrigins].map(compilePattern);
  const isTrustedOrigin = (origin: string): boolean => {
    if (!origin || origin === "null") return false;
    return patterns.some((matches) => matches(origin));
  };
  return {
    isTrustedOrigin,
    isAllowedCallbackURL(url) {
      if (hasAmbiguousCharacters(url)) return false;
      if (url.startsWith("/")) return isSafeRelativePath(url);
      let parsed: URL;
      try {
        parsed = new URL(url);
      } catch {
        return false;
      }
      if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return false;
      if (parsed.username || parsed.password) return false;
      return isTrustedOrigin(parsed.origin);
    },
  };
}

/** The origin a browser request claims: `Origin`, or the origin of `Referer` when Origin is absent. */
export function requestOrigin(headers: Headers): string | null {
  const origin = headers.get("origin");
  if (origin) return origin;
  const referer = headers.get("referer");
  if (!referer) return null;
  try {
    return new URL(referer).origin;
  } catch {
    return null;
  }
}
