import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { getAuth, remix } from "~/auth.server";
import { ErrorSummary, Field, Submit } from "~/components/form";
import { PasskeySignUp } from "~/components/passkeys";
import { SocialButtons } from "~/components/social";
import { failure, field, invalid, missingFields, readForm, redirectWith } from "~/lib/forms.server";
import { toTesseraLanguage, useT } from "~/lib/i18n";
import { resolveLanguage } from "~/lib/i18n.server";
import { getViewer, safeRedirect } from "~/lib/session.server";

export const handle = { title: "signUp.title" };

export async function loader({ request }: LoaderFunctionArgs) {
  const redirectTo = safeRedirect(new URL(request.url).searchParams.get("redirectTo"));
  if (await getViewer(request)) throw redirect(redirectTo);
  const auth = await getAuth();
  return { providers: Object.keys(auth.context.options.socialProviders), redirectTo };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readForm(request);
  const redirectTo = safeRedirect(field(form, "redirectTo"));
  const name = field(form, "name").trim();
  const missing = missingFields(form, {
    name: "NAME_REQUIRED",
    email: "EMAIL_REQUIRED",
    password: "NEW_PASSWORD_REQUIRED",
  });
  if (missing) return invalid(missing, form);
  const auth = await getAuth();
  try {
    const result = await auth.api.signUpEmail({
      body: {
        name,
        email: field(form, "email"),
        password: field(form, "password"),
        // The page's language becomes the user's: the verification mail is already in it.
        language: toTesseraLanguage(resolveLanguage(request)),
        // The verification mail's link lands on /verify-email, then goes on to where the user was headed.
        callbackURL: `/verify-email?next=${encodeURIComponent(redirectTo)}`,
      },
      ...remix.onBehalfOf({ request, context }),
    });
    if (!result.data.token) return redirect("/verify-email?sent=1");
    return redirectWith(redirectTo === "/" ? "/?welcome=1" : redirectTo, result.headers);
  } catch (error) {
    return failure(error, form);
  }
}

export default function SignUp() {
  const { t, lang } = useT();
  const { providers, redirectTo } = useLoaderData<typeof loader>();
  const state = useActionData<typeof action>();
  return (
    <section className="card narrow">
      <h1>{t("signUp.title")}</h1>
      <ErrorSummary
        state={state}
        labels={{ name: t("fields.name"), email: t("fields.email"), password: t("fields.password") }}
      />
      <Form method="post" noValidate>
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <Field name="name" label={t("fields.name")} state={state} autoComplete="name" required />
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
          hint={t("signUp.passwordHint")}
          state={state}
          autoComplete="new-password"
          required
        />
        <Submit>{t("signUp.submit")}</Submit>
        <PasskeySignUp
          language={toTesseraLanguage(lang)}
          callbackURL={`/verify-email?next=${encodeURIComponent(redirectTo)}`}
          next={redirectTo === "/" ? "/?welcome=1" : redirectTo}
        />
      </Form>
      <SocialButtons providers={providers} callbackURL={redirectTo} />
      <p>
        {t("signUp.haveAccount")}{" "}
        <Link to={`/sign-in${redirectTo !== "/" ? `?redirectTo=${encodeURIComponent(redirectTo)}` : ""}`}>
          {t("signUp.signInLink")}
        </Link>
      </p>
    </section>
  );
}
