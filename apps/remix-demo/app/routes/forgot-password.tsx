import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, Link, useActionData, useSearchParams } from "@remix-run/react";
import { getAuth, remix } from "~/auth.server";
import { ErrorSummary, Field, Notice, Submit } from "~/components/form";
import { failure, field, invalid, missingFields, readForm } from "~/lib/forms.server";
import { useT } from "~/lib/i18n";

export const handle = { title: "forgotPassword.title" };

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readForm(request);
  const missing = missingFields(form, { email: "EMAIL_REQUIRED" });
  if (missing) return invalid(missing, form);
  const auth = await getAuth();
  try {
    // The answer is the same whether or not the address has an account (no enumeration).
    await auth.api.requestPasswordReset({
      body: { email: field(form, "email"), redirectTo: "/reset-password" },
      ...remix.onBehalfOf({ request, context }),
    });
    return redirect("/forgot-password?sent=1");
  } catch (error) {
    return failure(error, form);
  }
}

export default function ForgotPassword() {
  const { t } = useT();
  const state = useActionData<typeof action>();
  const [params] = useSearchParams();
  return (
    <section className="card narrow">
      <h1>{t("forgotPassword.title")}</h1>
      {params.get("sent") ? <Notice>{t("forgotPassword.sent")}</Notice> : null}
      <p>{t("forgotPassword.intro")}</p>
      <ErrorSummary state={state} labels={{ email: t("fields.email") }} />
      <Form method="post" noValidate>
        <Field
          name="email"
          type="email"
          label={t("fields.email")}
          state={state}
          autoComplete="email"
          required
        />
        <Submit>{t("forgotPassword.submit")}</Submit>
      </Form>
      <p>
        <Link to="/sign-in">{t("forgotPassword.back")}</Link>
      </p>
    </section>
  );
}
