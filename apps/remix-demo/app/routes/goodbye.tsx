import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useT } from "~/lib/i18n";

export const handle = { title: "goodbye.title" };

// Where the deletion link lands: done, or ?error=<code> (wrong account signed in, used link…).
export async function loader({ request }: LoaderFunctionArgs) {
  const error = new URL(request.url).searchParams.get("error");
  return { error: error && /^[A-Z_]{1,64}$/.test(error) ? error : null };
}

export default function Goodbye() {
  const { t } = useT();
  const { error } = useLoaderData<typeof loader>();
  return (
    <section className="card narrow">
      <h1>{t("goodbye.title")}</h1>
      {error ? (
        <p className="field-error" role="alert">
          {t(`errors.${error}`)}
        </p>
      ) : (
        <p role="status">{t("goodbye.done")}</p>
      )}
      <p>
        <Link to={error ? "/account/delete" : "/"}>{error ? t("goodbye.back") : t("errorPage.home")}</Link>
      </p>
    </section>
  );
}
