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

/**
 * Where an email change stands after one of its links (routes/account.email.tsx puts the address
 * asked for in `to`): "moved" when the signed-in account has that address now, "pending" when the
 * current mailbox agreed and the new one has yet to open its link, "unknown" when nobody is signed
 * in (the page then says both). The address shown is the account's own, never `to`: a crafted link
 * cannot make the page name an address.
 */
type EmailChange = { state: "moved"; email: string } | { state: "pending" | "unknown" } | null;

function readEmailChange(to: string | null, viewerEmail: string | null): EmailChange {
  if (to === null) return null;
  if (viewerEmail === null) return { state: "unknown" };
  const asked = to.trim().toLowerCase();
  return asked === viewerEmail.toLowerCase() ? { state: "moved", email: viewerEmail } : { state: "pending" };
}

// Where the verification (and change-email) link lands after /api/auth/verify-email: ?error= on failure.
export async function loader({ request }: LoaderFunctionArgs) {
  const params = new URL(request.url).searchParams;
  const error = params.get("error");
  const viewer = await getViewer(request);
  return {
    sent: params.get("sent") === "1",
    error: error ? (KNOWN_ERRORS.includes(error) ? error : "invalid_token") : null,
    change: readEmailChange(params.get("to"), viewer?.user.email ?? null),
    next: safeRedirect(params.get("next")),
    signedIn: viewer !== null,
  };
}

export default function VerifyEmail() {
  const { t } = useT();
  const { sent, error, change, next, signedIn } = useLoaderData<typeof loader>();
  return (
    <section className="card narrow">
      <h1>{t("verifyEmail.title")}</h1>
      {sent ? (
        <p role="status">{t("verifyEmail.sent")}</p>
      ) : error ? (
        <p className="field-error" role="alert">
          {t(`verifyEmail.errors.${error}`)}
        </p>
      ) : change?.state === "moved" ? (
        <p role="status">{t("verifyEmail.changed", { email: change.email })}</p>
      ) : change ? (
        <p role="status">{t(`verifyEmail.change.${change.state}`)}</p>
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
