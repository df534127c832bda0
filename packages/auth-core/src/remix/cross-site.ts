/**
 * A form sent to an app page from another site. Remix 2 and React Router 7 refuse it themselves
 * (server-runtime's CSRF check, before the action runs) but answer an empty 500 and log a stack, so
 * the app's server turns such a request into a GET of CROSS_SITE_REFUSED_PATH, a page whose loader
 * answers a 403 the app's error boundary shows: no action and no loader of the target runs
 * (docs/security.md, "Forms sent from another site").
 */

/** The page a refused form is sent to instead (templates/remix-app/app/routes/cross-site-refused.tsx). */
export const CROSS_SITE_REFUSED_PATH = "/cross-site-refused";

/** What the check needs of a request, from a Web Request or a Node/Express one alike. */
export interface IncomingForm {
  method: string;
  /** The path without the query: `/sign-in`. */
  path: string;
  header(name: string): string | null | undefined;
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * True for a request that may change something (not GET/HEAD/OPTIONS) whose Origin is missing,
 * `null`, or names another host than the request's — X-Forwarded-Host, else Host, the host Remix
 * compares, so nothing Remix would refuse gets past. Browsers send Origin with every POST, so a
 * missing one is not a page of this app. Requests under `authPath` are left to the core, which
 * checks the Origin itself and answers CORS preflights.
 */
export function isCrossSiteForm(request: IncomingForm, authPath = "/api/auth"): boolean {
  if (SAFE_METHODS.has(request.method.toUpperCase())) return false;
  if (request.path === authPath || request.path.startsWith(`${authPath}/`)) return false;
  const origin = request.header("origin");
  const host = request.header("x-forwarded-host")?.split(",")[0]?.trim() || request.header("host");
  if (!origin || origin === "null" || !host) return true;
  try {
    return new URL(origin).host !== host;
  } catch {
    return true;
  }
}
