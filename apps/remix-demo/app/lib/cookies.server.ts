import { readAppEnv } from "./env.server";

/**
 * The value of the cookie `name` in a request, as sent (not decoded); null when the request has none.
 * An empty value ("name=") is "" and still counts as sent.
 */
export function readCookie(request: Request, name: string): string | null {
  for (const part of (request.headers.get("cookie") ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}

/** The attributes of the app's own cookies: SameSite=Lax, and Secure when the app is served over https. */
export function appCookieAttributes(path: string, maxAge: number): string {
  const secure = readAppEnv(process.env).baseURL.startsWith("https://") ? "; Secure" : "";
  return `Path=${path}; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${secure}`;
}
