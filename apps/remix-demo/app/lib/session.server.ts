import type { Session, User } from "@tessera/auth-core";
import { getAuth, remix } from "~/auth.server";

// Re-exported: routes import it from here (the rule is the core's Remix entry's, table-tested).
export { safeRedirect } from "@tessera/auth-core/remix";

export interface Viewer {
  session: Session;
  user: User;
  isAdmin: boolean;
}

/** What the header's admin link needs: whether the caller's admin roles may list users. */
const ADMIN_AREA = { user: ["list"] };

async function isAdmin(request: Request): Promise<boolean> {
  const auth = await getAuth();
  // Only the cookie goes along (see requirePermission in @tessera/auth-core/remix): a page opened
  // from another site's link carries that site's Origin, which the core refuses on a POST.
  const check = await auth.api.userHasPermission({
    body: { permissions: ADMIN_AREA },
    headers: new Headers({ cookie: request.headers.get("cookie") ?? "" }),
  });
  return check.data.success;
}

/** The signed-in caller, or null. One get-session call, plus a permission check for the admin link. */
export async function getViewer(request: Request): Promise<Viewer | null> {
  const data = await remix.getSession(request);
  return data ? { ...data, isAdmin: await isAdmin(request) } : null;
}

/** The signed-in caller, or a redirect to sign-in that comes back here afterwards. */
export async function requireViewer(request: Request): Promise<Viewer> {
  const data = await remix.requireSession(request);
  return { ...data, isAdmin: await isAdmin(request) };
}

/** Admin pages refuse everyone else here, on the server, whatever links the header shows. */
export async function requireAdmin(request: Request): Promise<Viewer> {
  const data = await remix.requirePermission(request, ADMIN_AREA);
  return { ...data, isAdmin: true };
}
