import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useT } from "~/lib/i18n";

export const handle = { title: "errorPage.title" };

// Where provider sign-ins and other browser redirects of the core land when they fail (?error=<code>).
export async function loader({ request }: LoaderFunctionArgs) {
  const error = new URL(request.url).searchParams.get("error") ?? "unknown";
  return { error: /^[\w-]{1,64}$/.test(error) ? error : "unknown" };
}

export default function ErrorPage() {
  const { t } = useT();
  const { error } = useLoaderData<typeof loader>();
  // The app's own wording first (problems.*), then the catalogue's (components/form.tsx useErrorText).
  const code = error.toUpperCase();
  const message = t([`problems.${code}`, `errors.${code}`], { defaultValue: t("errorPage.generic") });
  return (
    <section className="card narrow">
      <h1>{t("errorPage.title")}</h1>
      <p role="alert">{message}</p>
      <p className="muted">
        {t("errorPage.code")}: <code>{error}</code>
      </p>
      <p>
        <Link to="/">{t("errorPage.home")}</Link>
      </p>
    </section>
  );
}
