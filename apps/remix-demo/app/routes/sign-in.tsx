import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useSearchParams } from "@remix-run/react";
import { getAuth, remix } from "~/auth.server";
import { Checkbox, ErrorSummary, Field, Submit } from "~/components/form";
import { SocialButtons } from "~/components/social";
import { failure, field, invalid, missingFields, readForm, redirectWith } from "~/lib/forms.server";
import { useT } from "~/lib/i18n";
import { getViewer, safeRedirect } from "~/lib/session.server";

export const handle = { title: "signIn.title" };

export async function loader({ request }: LoaderFunctionArgs) {
  const redirectTo = safeRedirect(new URL(request.url).searchParams.get("redirectTo"));
  if (await getViewer(request)) throw redirect(redirectTo);
  const auth = await getAuth();
  return { providers: Object.keys(auth.context.options.socialProviders).filter(Boolean), redirectTo };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readForm(request);
  const redirectTo = safeRedirect(field(form, "redirectTo"));
  const missing = missingFields(form, { email: "EMAIL_REQUIRED", password: "PASSWORD_REQUIRED" });
  if (missing) return invalid(missing, form);
  const auth = await getAuth();
  try {
    const result = await auth.api.signInEmail({
      body: {
        email: field(form, "email"),
        password: field(form, "password"),
        rememberMe: form.get("rememberMe") === "on",
      },
      ...remix.onBehalfOf({ request, context }),
    });
    if ("twoFactorRedirect" in result.data) {
      const methods = result.data.twoFactorMethods.join(",");
      return redirectWith(
        `/two-factor?methods=${methods}&redirectTo=${encodeURIComponent(redirectTo)}`,
        result.headers,
      );
    }
    return redirectWith(redirectTo, result.headers);
  } catch (error) {
    return failure(error, form);
  }
}

export default function SignIn() {
  const { t } = useT();
  const { providers, redirectTo } = useLoaderData<typeof loader>();
  const state = useActionData<typeof action>();
  const [params] = useSearchParams();
  return (
    <section className="card narrow">
      <h1>{t("signIn.title")}</h1>
      {params.get("done") === "reset" ? (
        <p className="notice" role="status">
          {t("resetPassword.done")}
        </p>
      ) : null}
      <ErrorSummary state={state} labels={{ email: t("fields.email"), password: t("fields.password") }} />
      <Form method="post" noValidate>
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <Field
          name="email"
          type="email"
          label={t("fields.email")}
          state={state}
          autoComplete="email"
          required
        />
        <Field
          name="password"
          type="password"
          label={t("fields.password")}
          state={state}
          autoComplete="current-password"
          required
        />
        <Checkbox name="rememberMe" label={t("signIn.rememberMe")} defaultChecked />
        <Submit>{t("signIn.submit")}</Submit>
      </Form>
      <SocialButtons providers={providers} callbackURL={redirectTo} />
      <p>
        <Link to="/forgot-password">{t("signIn.forgot")}</Link>
      </p>
      <p>
        {t("signIn.noAccount")}{" "}
        <Link to={`/sign-up${redirectTo !== "/" ? `?redirectTo=${encodeURIComponent(redirectTo)}` : ""}`}>
          {t("signIn.signUpLink")}
        </Link>
      </p>
    </section>
  );
}
