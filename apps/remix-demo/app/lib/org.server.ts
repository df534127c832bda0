import type { FullOrganization } from "@tessera/auth-core";
import { isAuthError } from "@tessera/auth-core";
import { buildRoleTable, type RoleTable } from "@tessera/auth-core/roles";
import { getAuth } from "~/auth.server";
import { requireViewer, type Viewer } from "./session.server";

export interface OrganizationPage {
  viewer: Viewer;
  organization: FullOrganization;
  /** The viewer's roles in it. */
  roles: string[];
}

/**
 * The body of the 404 answered to a signed-in user who is not a member of the URL's organization:
 * removed, never a member, or no such organization — one answer for all three, so a page names no
 * organization the user cannot see and does not tell an existing slug from a free one.
 * routes/organizations.$slug.tsx shows it.
 */
const NOT_A_MEMBER = "not-a-member";

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
    if (!data) throw new Response(NOT_A_MEMBER, { status: 404, statusText: "Not Found" });
    const me = data.members.find((member) => member.userId === viewer.user.id);
    return { viewer, organization: data, roles: me ? me.role.split(",") : [] };
  } catch (error) {
    // NOT_A_MEMBER_OF_ORGANIZATION, ORGANIZATION_NOT_FOUND, a slug the schema refuses…
    if (isAuthError(error)) throw new Response(NOT_A_MEMBER, { status: 404, statusText: "Not Found" });
    throw error;
  }
}

export function canManage(roles: string[]): boolean {
  return roles.includes("owner") || roles.includes("admin");
}

/** The role table the core decides with: its defaults and this app's configured roles. */
export async function readRoleTable(): Promise<{ table: RoleTable; creatorRole: string }> {
  const { roles, creatorRole } = (await getAuth()).context.options.organization;
  return { table: buildRoleTable(roles, creatorRole), creatorRole };
}
