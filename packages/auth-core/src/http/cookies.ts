/** Cookie parsing and Set-Cookie serialisation (RFC 6265), no dependency needed for this much. */
export interface CookieAttributes {
  maxAge?: number | undefined;
  httpOnly?: boolean;
  secure?: boolean;
  sameSite?: "Lax" | "Strict" | "None";
  path?: string;
}

/** cookie max-age must not exceed 400 days. */
const MAX_COOKIE_AGE_SECONDS = 400 * 86400;

export function parseCookieHeader(header: string | null): Map<string, string> {
  const cookies = new Map<string, string>();
  if (!header) return cookies;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq <= 0) continue;
    const name = part.slice(0, eq).trim();
    if (cookies.has(name)) continue; // the first (most specific path) wins, as browsers order them
    let value = part.slice(eq + 1).trim();
    if (value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    // Without a "%" there is nothing to decode (our own cookies never have one: base64url, hex).
    if (!value.includes("%")) {
      cookies.set(name, value);
      continue;
    }
    try {
      cookies.set(name, decodeURIComponent(value));
    } catch {
      cookies.set(name, value);
    }
  }
  return cookies;
}

export function serializeCookie(name: string, value: string, attributes: CookieAttributes): string {
  const parts = [`${name}=${encodeURIComponent(value)}`];
  if (attributes.maxAge !== undefined) {
    parts.push(`Max-Age=${Math.min(Math.max(0, Math.floor(attributes.maxAge)), MAX_COOKIE_AGE_SECONDS)}`);
  }
  parts.push(`Path=${attributes.path ?? "/"}`);
  if (attributes.httpOnly !== false) parts.push("HttpOnly");
  if (attributes.secure) parts.push("Secure");
  parts.push(`SameSite=${attributes.sameSite ?? "Lax"}`);
  return parts.join("; ");
}
