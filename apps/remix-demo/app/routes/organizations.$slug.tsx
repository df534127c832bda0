import type { LoaderFunctionArgs } from "@remix-run/node";
import {
  isRouteErrorResponse,
  Link,
  NavLink,
  Outlet,
  useLoaderData,
  useParams,
  useRouteError,
} from "@remix-run/react";
import { getAuth } from "~/auth.server";
import { ActiveOrganizationToggle } from "~/components/active-organization";
import { useT } from "~/lib/i18n";
import { canManage, requireOrganization } from "~/lib/org.server";

export const handle = { title: "organizations.title" };

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { viewer, organization, roles } = await requireOrganization(request, params.slug);
  // Every page of the organization asks a member whose passkeys do not fit its policy for one that does.
  const { data: check } = await (await getAuth()).api.checkPasskeyPolicy({
    query: { organizationId: organization.id },
    headers: request.headers,
  });
  return {
    id: organization.id,
    isActive: viewer.session.activeOrganizationId === organization.id,
    name: organization.name,
    slug: organization.slug,
    roles,
    policySatisfied: check.satisfied,
    canManage: canManage(roles),
  };
}

export default function OrganizationLayout() {
  const { t } = useT();
  const {
    id,
    isActive,
    name,
    slug,
    roles,
    policySatisfied,
    canManage: manages,
  } = useLoaderData<typeof loader>();
  const tabs = [
    ["", "settings"],
    ["/members", "members"],
    ["/invitations", "invitations"],
    ["/teams", "teams"],
    ["/security", "security"],
    // Activity and Webhooks are their owners' and admins' (the core refuses others): not offered to others.
    ...(manages
      ? ([
          ["/activity", "activity"],
          ["/webhooks", "webhooks"],
        ] as const)
      : []),
  ] as const;
  return (
    <div className="card">
      <h1>{name}</h1>
      <div className="org-status">
        <p className="muted">
          {t("organizations.yourRole", {
            role: roles.map((role) => t(`organizations.roles.${role}`, { defaultValue: role })).join(", "),
          })}
        </p>
        {/* The header names the session's active organization: a page of another one offers to switch. */}
        <ActiveOrganizationToggle
          organization={{ id, name }}
          isActive={isActive}
          returnTo={`/organizations/${slug}`}
        />
      </div>
      {policySatisfied ? null : (
        <div className="warning" data-testid="passkey-policy-ask">
          <p>{t("organizations.passkeyPolicy.ask")}</p>
          <p>
            <Link to="/account/passkeys">{t("organizations.passkeyPolicy.add")}</Link> ·{" "}
            <Link to={`/organizations/${slug}/security`}>{t("organizations.passkeyPolicy.details")}</Link>
          </p>
        </div>
      )}
      <nav className="subnav" aria-label={t("organizations.sections")}>
        <ul>
          {tabs.map(([path, key]) => (
            <li key={key}>
              {/* Security's pages (components/security-nav.tsx) keep its tab current. */}
              <NavLink to={`/organizations/${slug}${path}`} end={key !== "security" && key !== "webhooks"}>
                {t(`organizations.tabs.${key}`)}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <Outlet />
    </div>
  );
}

/**
 * A signed-in user who is not a member of the URL's organization (removed while the page was open,
 * never a member, or no such organization): lib/org.server.ts answers 404 "not-a-member" for all
 * three. The page names only the slug the user already has in the address bar — never an
 * organization name, which a non-member must not learn. Other errors go to the app's error page.
 */
export function ErrorBoundary() {
  const error = useRouteError();
  const { slug } = useParams();
  const { t } = useT();
  if (!isRouteErrorResponse(error) || error.status !== 404 || error.data !== "not-a-member") throw error;
  return (
    <div className="card">
      <h1>{t("organizations.notMember.title")}</h1>
      <p>{t("organizations.notMember.body", { slug })}</p>
      <p>
        <Link to="/organizations">{t("organizations.notMember.back")}</Link>
      </p>
    </div>
  );
}
