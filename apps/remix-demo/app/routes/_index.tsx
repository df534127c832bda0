import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { getAppAuth } from "~/auth.server";
import { useT } from "~/lib/i18n";
import { getViewer } from "~/lib/session.server";

export const handle = { title: "app.title" };

/**
 * What a mailed link that did not work sends here as `?error=` (the core's magic-link and
 * verify-email redirects, when no error page was named), as the key of its sentence.
 */
const LINK_ERRORS: Record<string, string> = {
  INVALID_TOKEN: "home.linkError.invalid",
  invalid_token: "home.linkError.invalid",
  EXPIRED_TOKEN: "home.linkError.expired",
  TOKEN_EXPIRED: "home.linkError.expired",
  token_expired: "home.linkError.expired",
  user_not_found: "home.linkError.userNotFound",
  unauthorized: "home.linkError.otherAccount",
  email_can_not_be_updated: "home.linkError.emailTaken",
  BANNED_USER: "errors.BANNED_USER",
  banned_user: "errors.BANNED_USER",
  SIGNUP_DISABLED: "problems.SIGNUP_DISABLED",
  UNABLE_TO_CREATE_USER: "problems.UNABLE_TO_CREATE_USER",
};

/** The sentence for `?error=`: its own for a code the core sends here, a generic one for any other. */
function linkErrorOf(url: URL): string | null {
  const code = url.searchParams.get("error");
  if (!code) return null;
  return Object.hasOwn(LINK_ERRORS, code) ? LINK_ERRORS[code]! : "home.linkError.generic";
}

export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await getViewer(request);
  const { outbox } = await getAppAuth();
  return {
    linkError: linkErrorOf(new URL(request.url)),
    // A user who signed up by a code or a link may have no name yet: greeted by address.
    name: viewer ? viewer.user.name || viewer.user.email : null,
    emailVerified: viewer?.user.emailVerified ?? true,
    hasOutbox: outbox !== null && process.env.NODE_ENV !== "production",
  };
}

export default function Home() {
  const { t } = useT();
  const { linkError, name, emailVerified, hasOutbox } = useLoaderData<typeof loader>();
  return (
    <section className="card">
      <h1>{name ? t("home.welcome", { name }) : t("home.title")}</h1>
      {linkError ? (
        <p className="warning" role="alert" data-testid="link-error">
          {t(linkError)}
        </p>
      ) : null}
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
