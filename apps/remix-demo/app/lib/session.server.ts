import { redirect } from "@remix-run/node";
import type { Session, User } from "@tessera/auth-core";
import { getAuth } from "~/auth.server";

// Re-exported: routes import it from here; the rule itself has no server dependency (table-tested).
export { safeRedirect } from "./safe-redirect";

export interface Viewer {
  session: Session;
  user: User;
  isAdmin: boolean;
}

/** The signed-in caller, or null. One get-session call, plus a permission check for the admin link. */
export async function getViewer(request: Request): Promise<Viewer | null> {
  const auth = await getAuth();
  const { data } = await auth.api.getSession({ headers: request.headers });
  if (!data) return null;
  // A read, though has-permission is a POST: only the cookie goes along. The request's own Origin,
  // Referer and Fetch Metadata name the page that led here — another site for a followed link or
  // a refused cross-site form — and the core's Origin rule for state-changing calls would refuse
  // them, failing every page a link from another site opens (issue 14).
  const check = await auth.api.userHasPermission({
    body: { permissions: { user: ["list"] } },
    headers: new Headers({ cookie: request.headers.get("cookie") ?? "" }),
  });
  return { session: data.session, user: data.user, isAdmin: check.data.success };
}

/** The signed-in caller, or a redirect to sign-in that comes back here afterwards. */
export async function requireViewer(request: Request): Promise<Viewer> {
  const viewer = await getViewer(request);
  if (!viewer) {
    const url = new URL(request.url);
    throw redirect(`/sign-in?redirectTo=${encodeURIComponent(url.pathname + url.search)}`);
  }
  return viewer;
}

/** Admin pages refuse everyone else here, on the server, whatever links the header shows. */
export async function requireAdmin(request: Request): Promise<Viewer> {
  const viewer = await requireViewer(request);
  if (!viewer.isAdmin) throw new Response("Forbidden", { status: 403, statusText: "Forbidden" });
  return viewer;
}
