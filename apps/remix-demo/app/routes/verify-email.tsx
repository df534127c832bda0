import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useT } from "~/lib/i18n";
import { getViewer, safeRedirect } from "~/lib/session.server";

export const handle = { title: "verifyEmail.title" };

const KNOWN_ERRORS = [
  "token_expired",
  "invalid_token",
  "user_not_found",
  "unauthorized",
  "email_can_not_be_updated",
];

// Where the verification (and change-email) link lands after /api/auth/verify-email: ?error= on failure.
export async function loader({ request }: LoaderFunctionArgs) {
  const params = new URL(request.url).searchParams;
  const error = params.get("error");
  const viewer = await getViewer(request);
  return {
    sent: params.get("sent") === "1",
    error: error ? (KNOWN_ERRORS.includes(error) ? error : "invalid_token") : null,
    next: safeRedirect(params.get("next")),
    signedIn: viewer !== null,
  };
}

export default function VerifyEmail() {
  const { t } = useT();
  const { sent, error, next, signedIn } = useLoaderData<typeof loader>();
  return (
    <section className="card narrow">
      <h1>{t("verifyEmail.title")}</h1>
      {sent ? (
        <p role="status">{t("verifyEmail.sent")}</p>
      ) : error ? (
        <p className="field-error" role="alert">
          {t(`verifyEmail.errors.${error}`)}
        </p>
      ) : (
        <p role="status">{t("verifyEmail.done")}</p>
      )}
      <p>
        {signedIn ? (
          <Link to={next}>{t("verifyEmail.continue")}</Link>
        ) : (
          <Link to="/sign-in">{t("nav.signIn")}</Link>
        )}
      </p>
    </section>
  );
}
