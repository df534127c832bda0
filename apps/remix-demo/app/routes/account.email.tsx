import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useSearchParams } from "@remix-run/react";
import { getAuth } from "~/auth.server";
import { ErrorSummary, Field, Notice, Submit } from "~/components/form";
import { failure, field, readForm, redirectWith } from "~/lib/forms.server";
import { useT } from "~/lib/i18n";
import { requireViewer } from "~/lib/session.server";

export const handle = { title: "account.tabs.email" };

export async function loader({ request }: LoaderFunctionArgs) {
  const { user } = await requireViewer(request);
  return { email: user.email };
}

// A verified address confirms by a mailed link (to /verify-email); an unverified one moves at once.
export async function action({ request }: ActionFunctionArgs) {
  const form = await readForm(request);
  await requireViewer(request);
  const auth = await getAuth();
  try {
    await auth.api.changeEmail({
      body: { newEmail: field(form, "newEmail"), callbackURL: "/verify-email" },
      headers: request.headers,
    });
    return redirectWith("/account/email?done=requested");
  } catch (error) {
    return failure(error, form, { INVALID_EMAIL: "newEmail", EMAIL_CAN_NOT_BE_UPDATED: "newEmail" });
  }
}

export default function ChangeEmail() {
  const { t } = useT();
  const { email } = useLoaderData<typeof loader>();
  const state = useActionData<typeof action>();
  const [params] = useSearchParams();
  return (
    <section aria-labelledby="email-title">
      <h2 id="email-title">{t("account.email.title")}</h2>
      {params.get("done") ? <Notice>{t("account.email.requested")}</Notice> : null}
      <p>{t("account.email.current", { email })}</p>
      <ErrorSummary state={state} labels={{ newEmail: t("account.email.newEmail") }} />
      <Form method="post" noValidate>
        <Field
          name="newEmail"
          type="email"
          label={t("account.email.newEmail")}
          state={state}
          autoComplete="email"
        />
        <Submit>{t("account.email.submit")}</Submit>
      </Form>
    </section>
  );
}
