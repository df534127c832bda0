import { NavLink } from "@remix-run/react";
import { useT } from "~/lib/i18n";

/** Organization → Security's pages: passkey policy, verified domains, single sign-on, directory sync. */
export function SecurityNav({ slug }: { slug: string }) {
  const { t } = useT();
  const pages = [
    ["", "passkeys"],
    ["/domains", "domains"],
    ["/sso", "sso"],
    ["/directory", "directory"],
  ] as const;
  return (
    <nav className="subnav" aria-label={t("organizations.securityNav.label")}>
      <ul>
        {pages.map(([path, key]) => (
          <li key={key}>
            <NavLink to={`/organizations/${slug}/security${path}`} end>
              {t(`organizations.securityNav.${key}`)}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
