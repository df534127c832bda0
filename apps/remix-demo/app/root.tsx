import type { LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import {
  Form,
  isRouteErrorResponse,
  Link,
  Links,
  Meta,
  NavLink,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLocation,
  useMatches,
  useRouteError,
  useRouteLoaderData,
} from "@remix-run/react";
import { isAuthError, type Session, type User } from "@tessera/auth-core";
import { type ReactNode, useEffect, useState } from "react";
import { getAuth } from "./auth.server";
import { PasskeyOffer } from "./components/passkey-offer";
import { authClient } from "./lib/auth-client";
import { CROSS_SITE_REFUSED } from "./lib/cross-site";

type SessionAndUser = { session: Session; user: User };

import { LANGUAGES, type LanguageCode, useT } from "./lib/i18n";
import { resolveLanguage } from "./lib/i18n.server";
import { useNonce } from "./lib/nonce";
import { isPasskeyOffered } from "./lib/passkey-offer.server";
import { getViewer } from "./lib/session.server";
import styles from "./styles.css?url";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: styles },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

/**
 * The session's active organization for the header, or "ended": the session ended since getViewer
 * read it (a sign-out in another tab), the core answered 401, and the page is a signed-out visitor's.
 */
async function activeOrganizationOf(
  request: Request,
  organizationId: string,
): Promise<{ id: string; name: string } | null | "ended"> {
  const auth = await getAuth();
  try {
    const { data } = await auth.api.listOrganizations({ headers: request.headers });
    const found = data.find((org) => org.id === organizationId);
    return found ? { id: found.id, name: found.name } : null;
  } catch (error) {
    if (isAuthError(error) && error.status === 401) return "ended";
    throw error;
  }
}

export async function loader({ request }: LoaderFunctionArgs) {
  let viewer = await getViewer(request);
  const active = viewer?.session.activeOrganizationId
    ? await activeOrganizationOf(request, viewer.session.activeOrganizationId)
    : null;
  if (active === "ended") viewer = null;
  const activeOrganization = active === "ended" ? null : active;
  const lang = resolveLanguage(request, viewer?.user.language);
  return {
    lang,
    // The session for useSession's first render, without its token: the cookie stays the only copy.
    session: viewer
      ? ({ session: { ...viewer.session, token: "" }, user: viewer.user } satisfies SessionAndUser)
      : null,
    isAdmin: viewer?.isAdmin ?? false,
    activeOrganization,
    offerPasskey: viewer !== null && isPasskeyOffered(request),
  };
}

export type RootData = Awaited<ReturnType<typeof loader>>;

export function useRootData(): RootData | undefined {
  return useRouteLoaderData<typeof loader>("root");
}

export function Layout({ children }: { children: ReactNode }) {
  const data = useRootData();
  const { lang, t, switchTo } = useT();
  const nonce = useNonce();
  const wanted = data?.lang ?? lang;
  const title = useMatches()
    .map((match) => (match.handle as { title?: string } | undefined)?.title)
    .filter(Boolean)
    .pop();
  useEffect(() => {
    if (wanted !== lang) void switchTo?.(wanted);
  }, [wanted, lang, switchTo]);
  return (
    <html lang={wanted}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{pageTitle(t("app.title"), title ? t(title) : null)}</title>
        <Meta />
        <Links />
      </head>
      <body>
        <a className="skip-link" href="#main">
          {t("common.skipToContent")}
        </a>
        <Header data={data} />
        <main id="main" tabIndex={-1}>
          {data?.session ? <PasskeyOffer offered={data.offerPasskey} /> : null}
          {children}
        </main>
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

function sessionKey(value: SessionAndUser | null): string {
  if (!value) return "";
  const { session, user } = value;
  return [session.id, session.activeOrganizationId, session.impersonatedBy, user.name, user.updatedAt].join(
    "|",
  );
}

function pageTitle(app: string, page: string | null): string {
  return page && page !== app ? `${page} · ${app}` : app;
}

function ImpersonationBanner({ name }: { name: string }) {
  const { t } = useT();
  return (
    <section className="impersonation-banner" aria-label={t("impersonation.label")}>
      <p>{t("impersonation.banner", { name })}</p>
      <Form method="post" action="/admin/stop-impersonating">
        <button type="submit" className="button button-small">
          {t("impersonation.stop")}
        </button>
      </Form>
    </section>
  );
}

function Header({ data }: { data: RootData | undefined }) {
  const { t, lang } = useT();
  const location = useLocation();
  const initial = (data?.session ?? null) as SessionAndUser | null;
  const store = authClient.useSession(initial);
  // The store keeps its first value; when a loader reads another session (after an action: sign-in,
  // sign-out, a new name), the store reads again, and until it has answered the loader's is shown.
  const loaderKey = sessionKey(initial);
  const [syncedKey, setSyncedKey] = useState(loaderKey);
  useEffect(() => {
    if (loaderKey === syncedKey) return;
    void authClient.$store.session.refetch().finally(() => setSyncedKey(loaderKey));
  }, [loaderKey, syncedKey]);
  const current = loaderKey === syncedKey ? store.data : initial;
  const viewer = current
    ? {
        name: current.user.name,
        isAdmin: data?.isAdmin ?? false,
        impersonating: Boolean(current.session.impersonatedBy),
      }
    : null;
  // The header cuts a long name (styles.css .active-org): the title keeps it readable on hover.
  const activeOrganization = data?.activeOrganization
    ? t("nav.activeOrganization", { name: data.activeOrganization.name })
    : t("nav.noActiveOrganization");
  return (
    <>
      {viewer?.impersonating ? <ImpersonationBanner name={viewer.name} /> : null}
      <header className="site-header">
        <Link to="/" className="brand">
          {t("app.name")}
        </Link>
        <nav aria-label={t("nav.label")} className="main-nav">
          <ul>
            {viewer ? (
              <>
                <li>
                  <NavLink to="/account">{t("nav.account")}</NavLink>
                </li>
                <li>
                  <NavLink to="/organizations">{t("nav.organizations")}</NavLink>
                </li>
                {viewer.isAdmin ? (
                  <li>
                    <NavLink to="/admin">{t("nav.admin")}</NavLink>
                  </li>
                ) : null}
              </>
            ) : null}
          </ul>
        </nav>
        <div className="header-tools">
          {viewer ? (
            <p className="active-org" data-testid="active-organization" title={activeOrganization}>
              {activeOrganization}
            </p>
          ) : null}
          <Form method="post" action="/language" className="language-form" reloadDocument>
            <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
            <label htmlFor="language-select">{t("nav.language")}</label>
            <select
              id="language-select"
              name="lang"
              defaultValue={data?.lang ?? lang}
              key={data?.lang ?? lang}
            >
              {LANGUAGES.map((language) => (
                <option key={language.code} value={language.code} lang={language.code}>
                  {language.label}
                </option>
              ))}
            </select>
            <button type="submit" className="button button-small">
              {t("nav.changeLanguage")}
            </button>
          </Form>
          {viewer ? (
            <Form method="post" action="/sign-out" className="sign-out-form">
              <span className="viewer-name" title={viewer.name}>
                {viewer.name}
              </span>
              <button type="submit" className="button button-small button-secondary">
                {t("nav.signOut")}
              </button>
            </Form>
          ) : (
            <p className="auth-links">
              <Link to="/sign-in">{t("nav.signIn")}</Link> <Link to="/sign-up">{t("nav.signUp")}</Link>
            </p>
          )}
        </div>
      </header>
    </>
  );
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary() {
  const error = useRouteError();
  const { t } = useT();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const crossSite = isRouteErrorResponse(error) && status === 403 && error.data === CROSS_SITE_REFUSED;
  const key = crossSite
    ? "crossSite"
    : status === 404
      ? "notFound"
      : status === 403
        ? "forbidden"
        : "unexpected";
  if (!isRouteErrorResponse(error)) console.error(error);
  return (
    <section className="card narrow">
      <h1>{t(`errorPage.${key}.title`)}</h1>
      <p>{t(`errorPage.${key}.body`)}</p>
      <p>
        <Link to="/">{t("errorPage.home")}</Link>
      </p>
    </section>
  );
}

export type { LanguageCode };
