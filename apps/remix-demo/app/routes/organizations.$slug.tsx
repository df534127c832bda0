import type { LoaderFunctionArgs } from "@remix-run/node";
import { NavLink, Outlet, useLoaderData } from "@remix-run/react";
import { useT } from "~/lib/i18n";
import { requireOrganization } from "~/lib/org.server";

export const handle = { title: "organizations.title" };

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { organization, roles } = await requireOrganization(request, params.slug);
  return { name: organization.name, slug: organization.slug, roles };
}

export default function OrganizationLayout() {
  const { t } = useT();
  const { name, slug, roles } = useLoaderData<typeof loader>();
  const tabs = [
    ["", "settings"],
    ["/members", "members"],
    ["/invitations", "invitations"],
    ["/teams", "teams"],
  ] as const;
  return (
    <div className="card">
      <h1>{name}</h1>
      <p className="muted">
        {t("organizations.yourRole", {
          role: roles.map((role) => t(`organizations.roles.${role}`, { defaultValue: role })).join(", "),
        })}
      </p>
      <nav className="subnav" aria-label={t("organizations.sections")}>
        <ul>
          {tabs.map(([path, key]) => (
            <li key={key}>
              <NavLink to={`/organizations/${slug}${path}`} end>
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
