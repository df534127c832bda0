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

/**
 * The address moves only once the new mailbox has opened its link (the core's default,
 * `user.changeEmail.verifyNewEmailFirst`, docs/decisions/0008-an-address-moves-only-once-it-is-proven.md "An address moves only once it is
 * proven"), for unverified accounts too; a verified account's current mailbox agrees first. The
 * links land on /verify-email with the address asked for (`to`), which tells that page whether
 * the address has moved yet (routes/verify-email.tsx).
 */
export async function action({ request }: ActionFunctionArgs) {
  const form = await readForm(request);
  const { user } = await requireViewer(request);
  const auth = await getAuth();
  const newEmail = field(form, "newEmail");
  try {
    await auth.api.changeEmail({
      body: { newEmail, callbackURL: `/verify-email?to=${encodeURIComponent(newEmail)}` },
      headers: request.headers,
    });
    return redirectWith(`/account/email?done=${user.emailVerified ? "current" : "new"}`);
  } catch (error) {
    return failure(error, form, { INVALID_EMAIL: "newEmail", EMAIL_CAN_NOT_BE_UPDATED: "newEmail" });
  }
}

export default function ChangeEmail() {
  const { t } = useT();
  const { email } = useLoaderData<typeof loader>();
  const state = useActionData<typeof action>();
  const [params] = useSearchParams();
  const done = params.get("done");
  return (
    <section aria-labelledby="email-title">
      <h2 id="email-title">{t("account.email.title")}</h2>
      {done ? (
        <Notice>
          {done === "current"
            ? t("account.email.requestedCurrent", { email })
            : t("account.email.requestedNew")}
        </Notice>
      ) : null}
      <p>{t("account.email.current", { email })}</p>
      <p>{t("account.email.intro")}</p>
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
