import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { getAppAuth } from "~/auth.server";
import { useT } from "~/lib/i18n";
import { getViewer } from "~/lib/session.server";

export const handle = { title: "app.title" };

export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await getViewer(request);
  const { outbox } = await getAppAuth();
  return {
    name: viewer?.user.name ?? null,
    emailVerified: viewer?.user.emailVerified ?? true,
    hasOutbox: outbox !== null && process.env.NODE_ENV !== "production",
  };
}

export default function Home() {
  const { t } = useT();
  const { name, emailVerified, hasOutbox } = useLoaderData<typeof loader>();
  return (
    <section className="card">
      <h1>{name ? t("home.welcome", { name }) : t("home.title")}</h1>
      <p>{t("home.intro")}</p>
      {name && !emailVerified ? <p className="warning">{t("home.unverified")}</p> : null}
      <ul className="link-list">
        {name ? (
          <>
            <li>
              <Link to="/account">{t("nav.account")}</Link>
            </li>
            <li>
              <Link to="/organizations">{t("nav.organizations")}</Link>
            </li>
          </>
        ) : (
          <>
            <li>
              <Link to="/sign-in">{t("nav.signIn")}</Link>
            </li>
            <li>
              <Link to="/sign-up">{t("nav.signUp")}</Link>
            </li>
          </>
        )}
        {hasOutbox ? (
          <li>
            <Link to="/dev/outbox">{t("outbox.title")}</Link>
          </li>
        ) : null}
      </ul>
    </section>
  );
}
