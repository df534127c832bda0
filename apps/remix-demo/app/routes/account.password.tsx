import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useSearchParams } from "@remix-run/react";
import { getAuth, remix } from "~/auth.server";
import { Checkbox, ErrorSummary, Field, Notice, Submit } from "~/components/form";
import { failure, field, newPasswordCodesOn, readForm, redirectWith } from "~/lib/forms.server";
import { useT } from "~/lib/i18n";
import { requireViewer } from "~/lib/session.server";

export const handle = { title: "account.tabs.password" };

async function hasPassword(request: Request): Promise<boolean> {
  const auth = await getAuth();
  const { data } = await auth.api.listUserAccounts({ headers: request.headers });
  return data.some((account) => account.provider === "credential");
}

export async function loader({ request }: LoaderFunctionArgs) {
  await requireViewer(request);
  return { hasPassword: await hasPassword(request) };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readForm(request);
  await requireViewer(request);
  const auth = await getAuth();
  try {
    if (field(form, "intent") === "set") {
      // A social-only account gets its first password.
      await auth.api.setPassword({
        body: { newPassword: field(form, "newPassword") },
        ...remix.onBehalfOf({ request, context }),
      });
      return redirectWith("/account/password?done=set");
    }
    const result = await auth.api.changePassword({
      body: {
        currentPassword: field(form, "currentPassword"),
        newPassword: field(form, "newPassword"),
        revokeOtherSessions: form.get("revokeOtherSessions") === "on",
      },
      ...remix.onBehalfOf({ request, context }),
    });
    return redirectWith("/account/password?done=changed", result.headers);
  } catch (error) {
    return failure(error, form, {
      INVALID_PASSWORD: "currentPassword",
      ...newPasswordCodesOn("newPassword"),
    });
  }
}

export default function Password() {
  const { t } = useT();
  const { hasPassword } = useLoaderData<typeof loader>();
  const state = useActionData<typeof action>();
  const [params] = useSearchParams();
  const done = params.get("done");
  const labels = { currentPassword: t("fields.currentPassword"), newPassword: t("fields.newPassword") };
  return (
    <section aria-labelledby="password-title">
      <h2 id="password-title">
        {hasPassword ? t("account.password.title") : t("account.password.setTitle")}
      </h2>
      {done ? <Notice>{t(`account.password.done.${done === "set" ? "set" : "changed"}`)}</Notice> : null}
      <ErrorSummary state={state} labels={labels} />
      {hasPassword ? (
        <Form method="post" noValidate>
          <Field
            name="currentPassword"
            type="password"
            label={labels.currentPassword}
            state={state}
            autoComplete="current-password"
          />
          <Field
            name="newPassword"
            type="password"
            label={labels.newPassword}
            state={state}
            autoComplete="new-password"
          />
          <Checkbox name="revokeOtherSessions" label={t("account.password.signOutOthers")} defaultChecked />
          <Submit intent="change">{t("account.password.submit")}</Submit>
        </Form>
      ) : (
        <Form method="post" noValidate>
          <p>{t("account.password.setIntro")}</p>
          <Field
            name="newPassword"
            type="password"
            label={labels.newPassword}
            state={state}
            autoComplete="new-password"
          />
          <Submit intent="set">{t("account.password.setSubmit")}</Submit>
        </Form>
      )}
    </section>
  );
}
