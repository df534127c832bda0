import type { LoaderFunctionArgs } from "@remix-run/node";
import { NavLink, Outlet } from "@remix-run/react";
import { useT } from "~/lib/i18n";
import { requireAdmin } from "~/lib/session.server";

export const handle = { title: "admin.title" };

// Each admin loader and action checks again (requireAdmin): a child's data can be fetched alone.
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  return null;
}

export default function AdminLayout() {
  const { t } = useT();
  return (
    <div className="card">
      <h1>{t("admin.title")}</h1>
      <nav className="subnav" aria-label={t("admin.sections")}>
        <ul>
          <li>
            <NavLink to="/admin" end>
              {t("admin.tabs.dashboard")}
            </NavLink>
          </li>
          <li>
            <NavLink to="/admin/users">{t("admin.tabs.users")}</NavLink>
          </li>
          <li>
            <NavLink to="/admin/audit">{t("admin.tabs.audit")}</NavLink>
          </li>
          <li>
            <NavLink to="/admin/events">{t("admin.tabs.events")}</NavLink>
          </li>
          <li>
            <NavLink to="/admin/webhooks">{t("admin.tabs.webhooks")}</NavLink>
          </li>
        </ul>
      </nav>
      <Outlet />
    </div>
  );
}
