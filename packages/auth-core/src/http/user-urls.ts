import type { AuthContext } from "../context.ts";
import { AuthError } from "../errors/auth-error.ts";
import { isEmptyObject } from "./callback-urls.ts";

/**
 * URLs a user supplies that the app later renders — a user's `image`, an organization's `logo`
 * (docs/security.md, "URLs users supply"). Only `https:`, and `http:` while the auth server itself
 * runs on http (development): a `javascript:` or `data:` URL in an `<a href>` or `<img src>` is
 * script or content the user chose, rendered on someone else's page. `null` clears.
 *
 * Checked here, after the schemas, because the rule depends on the configured baseURL. The fields
 * are found by name, at the top of the body and under `data` (the two shapes endpoints use:
 * sign-up and update-user; admin create/update-user and organization update), so an endpoint
 * that takes an image or a logo cannot skip the rule.
 */
const USER_URL_FIELDS = ["image", "logo"] as const;

/** True when a URL from a user may be stored: absolute, https (or http on an http server), no credentials. */
export function isAllowedUserURL(auth: AuthContext, value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  const allowsHttp = auth.apiURL.startsWith("http:");
  if (url.protocol !== "https:" && !(allowsHttp && url.protocol === "http:")) return false;
  return url.username === "" && url.password === "";
}

/** Refuses the body with VALIDATION_ERROR (naming the field, never the value) when a URL field breaks the rule. */
export function assertUserURLsAllowed(auth: AuthContext, body: unknown): void {
  check(auth, body, "");
  if (typeof body === "object" && body !== null) check(auth, (body as Record<string, unknown>).data, "data.");
}

function check(auth: AuthContext, source: unknown, prefix: string): void {
  if (typeof source !== "object" || source === null || isEmptyObject(source)) return;
  for (const field of USER_URL_FIELDS) {
    const value = (source as Record<string, unknown>)[field];
    if (value === undefined || value === null) continue;
    if (typeof value === "string" && isAllowedUserURL(auth, value)) continue;
    const schemes = auth.apiURL.startsWith("http:") ? "an http(s) URL" : "an https URL";
    throw new AuthError("VALIDATION_ERROR", {
      details: { issues: [{ path: `${prefix}${field}`, message: `must be ${schemes} or null` }] },
    });
  }
}
