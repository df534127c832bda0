import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { getAuth, remix } from "~/auth.server";
import { ErrorSummary, Field, Submit, useErrorText } from "~/components/form";
import { failure, field, invalid, missingFields, readForm } from "~/lib/forms.server";
import { useT } from "~/lib/i18n";

export const handle = { title: "resetPassword.title" };

// The mailed link goes through /api/auth/reset-password/<token>, which lands here with ?token= or ?error=.
export async function loader({ request }: LoaderFunctionArgs) {
  const params = new URL(request.url).searchParams;
  // Whatever the core's ?error= says (INVALID_TOKEN today), the user reads "used or expired".
  return { token: params.get("token") ?? "", error: params.get("error") ? "INVALID_TOKEN" : null };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readForm(request);
  const missing = missingFields(form, { password: "NEW_PASSWORD_REQUIRED" });
  if (missing) return invalid(missing, form);
  const auth = await getAuth();
  try {
    await auth.api.resetPassword({
      body: { newPassword: field(form, "password"), token: field(form, "token") },
      ...remix.onBehalfOf({ request, context }),
    });
    return redirect("/sign-in?done=reset");
  } catch (error) {
    return failure(error, form, { INVALID_TOKEN: "form" });
  }
}

export default function ResetPassword() {
  const { t } = useT();
  const text = useErrorText();
  const { token, error } = useLoaderData<typeof loader>();
  const state = useActionData<typeof action>();
  // A used or expired link: from the mailed link (?error=) or when the token is refused on submit.
  const refused = error ?? (!token || state?.errors?.form === "INVALID_TOKEN" ? "INVALID_TOKEN" : null);
  if (refused) {
    return (
      <section className="card narrow">
        <h1>{t("resetPassword.title")}</h1>
        <p className="warning" role="alert">
          {text(refused)}
        </p>
        <p>
          <Link to="/forgot-password" className="button">
            {t("resetPassword.askAgain")}
          </Link>
        </p>
      </section>
    );
  }
  return (
    <section className="card narrow">
      <h1>{t("resetPassword.title")}</h1>
      <ErrorSummary state={state} labels={{ password: t("fields.newPassword") }} />
      <Form method="post" noValidate>
        <input type="hidden" name="token" value={token} />
        <Field
          name="password"
          type="password"
          label={t("fields.newPassword")}
          state={state}
          autoComplete="new-password"
          required
        />
        <Submit>{t("resetPassword.submit")}</Submit>
      </Form>
    </section>
  );
}
