import type { FullOrganization } from "@tessera/auth-core";
import { isAuthError } from "@tessera/auth-core";
import { getAuth } from "~/auth.server";
import { requireViewer, type Viewer } from "./session.server";

export interface OrganizationPage {
  viewer: Viewer;
  organization: FullOrganization;
  /** The viewer's roles in it. */
  roles: string[];
}

/** The organization of the URL's slug with members, invitations and teams; 404 to a non-member. */
export async function requireOrganization(
  request: Request,
  slug: string | undefined,
): Promise<OrganizationPage> {
  const viewer = await requireViewer(request);
  const auth = await getAuth();
  try {
    const { data } = await auth.api.getFullOrganization({
      query: { organizationSlug: slug ?? "", membersLimit: 100 },
      headers: request.headers,
    });
    if (!data) throw new Response("Not found", { status: 404 });
    const me = data.members.find((member) => member.userId === viewer.user.id);
    return { viewer, organization: data, roles: me ? me.role.split(",") : [] };
  } catch (error) {
    if (isAuthError(error)) throw new Response("Not found", { status: 404 });
    throw error;
  }
}

export function canManage(roles: string[]): boolean {
  return roles.includes("owner") || roles.includes("admin");
}
