import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useRouteError,
} from "@remix-run/react";
import { LANG, strings } from "~/strings";

export function Layout({ children }: { children: React.ReactNode }) {
  return (
    <html lang={LANG}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        {/* A few readable defaults; replace with your own styles. */}
        <style>{`body{font-family:system-ui,sans-serif;max-width:36rem;margin:2rem auto;padding:0 1rem;line-height:1.5}
label{display:block;margin:.5rem 0}input{display:block;width:100%;padding:.4rem;box-sizing:border-box}
button{margin-top:.75rem;padding:.4rem 1rem}[role=alert]{color:#b00020}`}</style>
        <Meta />
        <Links />
      </head>
      <body>
        {children}
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

/**
 * What a visitor sees when a loader or action fails: a sentence, never a stack. A refusal the app
 * threw (403, 404) shows its reason; anything else (a failed database, a bug) says so plainly —
 * the server's log has the details.
 */
export function ErrorBoundary() {
  const error = useRouteError();
  const known = isRouteErrorResponse(error);
  const t = strings.errorPage;
  const statuses: Record<number, string | undefined> = t.statuses;
  return (
    <main>
      <h1>
        {known ? `${error.status} ${statuses[error.status] ?? (error.statusText || t.error)}` : t.title}
      </h1>
      <p>{known && typeof error.data === "string" && error.data ? error.data : t.notShown}</p>
      <p>
        <a href="/">{t.back}</a>
      </p>
    </main>
  );
}
