import type { LoaderFunctionArgs } from "@remix-run/node";
import { NavLink, Outlet } from "@remix-run/react";
import { useT } from "~/lib/i18n";
import { requireViewer } from "~/lib/session.server";

export const handle = { title: "account.title" };

export async function loader({ request }: LoaderFunctionArgs) {
  await requireViewer(request);
  return null;
}

const TABS = [
  ["/account", "profile"],
  ["/account/email", "email"],
  ["/account/password", "password"],
  ["/account/sessions", "sessions"],
  ["/account/linked", "linked"],
  ["/account/passkeys", "passkeys"],
  ["/account/two-factor", "twoFactor"],
  ["/account/api-keys", "apiKeys"],
  ["/account/delete", "delete"],
] as const;

export default function AccountLayout() {
  const { t } = useT();
  return (
    <div className="card">
      <h1>{t("account.title")}</h1>
      <nav className="subnav" aria-label={t("account.sections")}>
        <ul>
          {TABS.map(([to, key]) => (
            <li key={to}>
              <NavLink to={to} end>
                {t(`account.tabs.${key}`)}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <Outlet />
    </div>
  );
}
