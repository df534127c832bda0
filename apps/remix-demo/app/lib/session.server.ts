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

/**
 * Whether the viewer read once may see the admin link: asked about their user id (server code may),
 * not about the cookie, so a session that ends between the two reads (a sign-out in another tab)
 * leaves a signed-out page rather than an UNAUTHORIZED error. An impersonation session has no admin
 * rights, as the core's own check of the caller decides.
 */
async function isAdmin({ session, user }: { session: Session; user: User }): Promise<boolean> {
  if (session.impersonatedBy) return false;
  const auth = await getAuth();
  const check = await auth.api.userHasPermission({ body: { permissions: ADMIN_AREA, userId: user.id } });
  return check.data.success;
}

/** The signed-in caller, or null. One get-session call, plus a permission check for the admin link. */
export async function getViewer(request: Request): Promise<Viewer | null> {
  const data = await remix.getSession(request);
  return data ? { ...data, isAdmin: await isAdmin(data) } : null;
}

/** The signed-in caller, or a redirect to sign-in that comes back here afterwards. */
export async function requireViewer(request: Request): Promise<Viewer> {
  const data = await remix.requireSession(request);
  return { ...data, isAdmin: await isAdmin(data) };
}

/** Admin pages refuse everyone else here, on the server, whatever links the header shows. */
export async function requireAdmin(request: Request): Promise<Viewer> {
  const data = await remix.requirePermission(request, ADMIN_AREA);
  return { ...data, isAdmin: true };
}
