import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useSearchParams } from "@remix-run/react";
import { getAuth, remix } from "~/auth.server";
import { ErrorSummary, Field, Notice, Submit } from "~/components/form";
import { failure, field, readForm, redirectWith } from "~/lib/forms.server";
import { useT } from "~/lib/i18n";
import { requireViewer } from "~/lib/session.server";

export const handle = { title: "account.tabs.delete" };

export async function loader({ request }: LoaderFunctionArgs) {
  await requireViewer(request);
  const auth = await getAuth();
  const { data } = await auth.api.listUserAccounts({ headers: request.headers });
  const error = new URL(request.url).searchParams.get("error");
  return {
    hasPassword: data.some((account) => account.provider === "credential"),
    error: error && /^[A-Z_]{1,64}$/.test(error) ? error : null,
  };
}

// Per configuration: the password (when the account has one) or a fresh session, then the mailed
// link confirms (/api/auth/delete-user/callback → /goodbye).
export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readForm(request);
  await requireViewer(request);
  const auth = await getAuth();
  const password = field(form, "password");
  try {
    const result = await auth.api.deleteUser({
      body: { callbackURL: "/goodbye", ...(password ? { password } : {}) },
      ...remix.onBehalfOf({ request, context }),
    });
    if (result.data.message === "User deleted") return redirectWith("/goodbye", result.headers);
    return redirectWith("/account/delete?done=mailed");
  } catch (error) {
    return failure(error, form);
  }
}

export default function DeleteAccount() {
  const { t } = useT();
  const { hasPassword, error } = useLoaderData<typeof loader>();
  const state = useActionData<typeof action>();
  const [params] = useSearchParams();
  return (
    <section aria-labelledby="delete-title">
      <h2 id="delete-title">{t("account.delete.title")}</h2>
      {params.get("done") ? <Notice>{t("account.delete.mailed")}</Notice> : null}
      {error ? (
        <p className="warning" role="alert">
          {t(`errors.${error}`)}
        </p>
      ) : null}
      <p className="warning">{t("account.delete.warning")}</p>
      <ErrorSummary state={state} labels={{ password: t("fields.password") }} />
      <Form method="post" noValidate>
        {hasPassword ? (
          <Field
            name="password"
            type="password"
            label={t("fields.password")}
            state={state}
            autoComplete="current-password"
          />
        ) : (
          <p>{t("account.delete.freshSession")}</p>
        )}
        <Submit className="button button-danger">{t("account.delete.submit")}</Submit>
      </Form>
    </section>
  );
}
