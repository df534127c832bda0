import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { getAuth, remix } from "~/auth.server";
import { ErrorSummary, Field, Notice, Submit } from "~/components/form";
import { failure, field, invalid, missingFields, readForm, redirectWith } from "~/lib/forms.server";
import { useT } from "~/lib/i18n";
import { getViewer, safeRedirect } from "~/lib/session.server";
import { mailSignInLink } from "~/lib/sign-in-mail.server";
import { twoFactorPath } from "~/lib/two-factor-path";

export const handle = { title: "signInCode.title" };

/** The refusals of a typed code: shown under the code field. */
const ON_CODE = { INVALID_OTP: "code", OTP_EXPIRED: "code", TOO_MANY_ATTEMPTS: "code" };

/**
 * After "Email me a link or code" (routes/sign-in.tsx): the 6-digit code of the mail, for a person
 * who reads mail on another device. Also where a mailed link that no longer works lands (the core
 * adds `error=INVALID_TOKEN`). The address comes from the query: the code must be that address's.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const params = new URL(request.url).searchParams;
  const redirectTo = safeRedirect(params.get("redirectTo"));
  const email = params.get("email")?.trim() ?? "";
  if (!email) throw redirect(`/sign-in?redirectTo=${encodeURIComponent(redirectTo)}`);
  // No code can come for it, and the page's address is a hidden field: the sign-in form shows it to correct.
  if (!looksLikeAddress(email)) {
    const back = new URLSearchParams({ email, error: "INVALID_EMAIL", redirectTo });
    throw redirect(`/sign-in?${back}`);
  }
  if (await getViewer(request)) throw redirect(redirectTo);
  const error = params.get("error");
  return {
    email,
    redirectTo,
    sent: params.get("sent") === "1",
    linkFailed: error !== null && error !== "",
  };
}

/** Loose on purpose: the core judges an address; this only catches what cannot be one (no @, spaces). */
function looksLikeAddress(email: string): boolean {
  return /^[^\s@]+@[^\s@]+$/.test(email);
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readForm(request);
  const redirectTo = safeRedirect(field(form, "redirectTo"));
  const email = field(form, "email").trim();
  const auth = await getAuth();
  try {
    if (field(form, "intent") === "resend")
      return await mailSignInLink({ request, context }, email, redirectTo);
    const missing = missingFields(form, { code: "CODE_REQUIRED" });
    if (missing) return invalid(missing, form);
    const result = await auth.api.signInEmailOTP({
      body: { email, otp: field(form, "code").replace(/\s+/g, ""), rememberMe: true },
      ...remix.onBehalfOf({ request, context }),
    });
    if ("twoFactorRedirect" in result.data) {
      return redirectWith(twoFactorPath(result.data.twoFactorMethods, redirectTo), result.headers);
    }
    return redirectWith(redirectTo, result.headers);
  } catch (error) {
    return failure(error, form, ON_CODE);
  }
}

export default function SignInCode() {
  const { t } = useT();
  const { email, redirectTo, sent, linkFailed } = useLoaderData<typeof loader>();
  const state = useActionData<typeof action>();
  return (
    <section className="card narrow">
      <h1>{t("signInCode.title")}</h1>
      {linkFailed ? (
        <p className="field-error" role="alert">
          {t("signInCode.linkFailed")}
        </p>
      ) : sent && !state ? (
        <Notice>{t("signInCode.sent", { email })}</Notice>
      ) : null}
      <ErrorSummary state={state} labels={{ code: t("signInCode.code") }} />
      <Form method="post" noValidate>
        <input type="hidden" name="email" value={email} />
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <p>{t("signInCode.instructions", { email })}</p>
        <Field
          name="code"
          label={t("signInCode.code")}
          state={state}
          autoComplete="one-time-code"
          inputMode="numeric"
          maxLength={6}
          spellCheck={false}
          required
        />
        <Submit intent="code">{t("signInCode.submit")}</Submit>
        <p>
          <button type="submit" name="intent" value="resend" className="button button-secondary">
            {t("signInCode.resend")}
          </button>
        </p>
      </Form>
      <p>
        <Link to={`/sign-in?redirectTo=${encodeURIComponent(redirectTo)}`}>
          {t("signInCode.otherAddress")}
        </Link>
      </p>
    </section>
  );
}
