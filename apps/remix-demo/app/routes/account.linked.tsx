import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { getAuth } from "~/auth.server";
import { DoneNotice, ErrorSummary } from "~/components/form";
import { PROVIDER_NAMES } from "~/components/social";
import { failure, field, readForm, redirectWith } from "~/lib/forms.server";
import { useT } from "~/lib/i18n";
import { requireViewer } from "~/lib/session.server";

export const handle = { title: "account.tabs.linked" };

export async function loader({ request }: LoaderFunctionArgs) {
  await requireViewer(request);
  const auth = await getAuth();
  const { data } = await auth.api.listUserAccounts({ headers: request.headers });
  const configured = Object.keys(auth.context.options.socialProviders);
  const error = new URL(request.url).searchParams.get("error");
  return {
    accounts: data.map((account) => ({
      id: account.id,
      provider: account.provider,
      accountId: account.accountId,
      linkedAt: account.createdAt.toISOString(),
    })),
    linkable: configured.filter((id) => !data.some((account) => account.provider === id)),
    error: error && /^[\w-]{1,64}$/.test(error) ? error : null,
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const form = await readForm(request);
  await requireViewer(request);
  const auth = await getAuth();
  try {
    await auth.api.unlinkAccount({
      body: { providerId: field(form, "providerId"), accountId: field(form, "accountId") },
      headers: request.headers,
    });
    return redirectWith("/account/linked?done=unlinked");
  } catch (error) {
    return failure(error, form);
  }
}

export default function LinkedAccounts() {
  const { t, lang } = useT();
  const { accounts, linkable, error } = useLoaderData<typeof loader>();
  const state = useActionData<typeof action>();
  const format = new Intl.DateTimeFormat(lang, { dateStyle: "medium" });
  return (
    <section aria-labelledby="linked-title">
      <h2 id="linked-title">{t("account.linked.title")}</h2>
      <DoneNotice outcomes={{ unlinked: "account.linked.unlinked" }} state={state} />
      {error ? (
        <p className="warning" role="alert">
          {t(`errors.${error.toUpperCase()}`, { defaultValue: t("errorPage.generic") })}
        </p>
      ) : null}
      <ErrorSummary state={state} />
      <table>
        <thead>
          <tr>
            <th scope="col">{t("account.linked.provider")}</th>
            <th scope="col">{t("account.linked.linkedAt")}</th>
            <th scope="col">{t("common.actions")}</th>
          </tr>
        </thead>
        <tbody>
          {accounts.map((account) => (
            <tr key={account.id}>
              <td>
                {account.provider === "credential"
                  ? t("account.linked.password")
                  : (PROVIDER_NAMES[account.provider] ?? account.provider)}
              </td>
              <td>{format.format(new Date(account.linkedAt))}</td>
              <td>
                <Form method="post">
                  <input type="hidden" name="providerId" value={account.provider} />
                  <input type="hidden" name="accountId" value={account.accountId} />
                  <button type="submit" className="button button-small button-secondary">
                    {t("account.linked.unlink")}
                    <span className="visually-hidden">
                      {" "}
                      {PROVIDER_NAMES[account.provider] ?? account.provider}
                    </span>
                  </button>
                </Form>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {linkable.length > 0 ? (
        <>
          <h3>{t("account.linked.linkTitle")}</h3>
          <ul className="inline-list">
            {linkable.map((provider) => (
              <li key={provider}>
                <Form method="post" action="/social" reloadDocument>
                  <input type="hidden" name="intent" value="link" />
                  <input type="hidden" name="provider" value={provider} />
                  <input type="hidden" name="callbackURL" value="/account/linked" />
                  <button type="submit" className="button button-secondary">
                    {t("account.linked.link", { provider: PROVIDER_NAMES[provider] ?? provider })}
                  </button>
                </Form>
              </li>
            ))}
          </ul>
        </>
      ) : (
        <p className="muted">{t("account.linked.noProviders")}</p>
      )}
    </section>
  );
}
