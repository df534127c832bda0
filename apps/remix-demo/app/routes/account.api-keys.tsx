import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { getAuth } from "~/auth.server";
import { CopyButton } from "~/components/copy-button";
import { DoneNotice, ErrorSummary, Field, type FormState, Submit } from "~/components/form";
import { failure, field, readForm, redirectWith } from "~/lib/forms.server";
import { useT } from "~/lib/i18n";
import { requireViewer } from "~/lib/session.server";

export const handle = { title: "account.tabs.apiKeys" };

const EXPIRIES = ["7", "30", "90", "365", "never"] as const;

export async function loader({ request }: LoaderFunctionArgs) {
  await requireViewer(request);
  const auth = await getAuth();
  const { data } = await auth.api.listApiKeys({ headers: request.headers });
  return {
    keys: data.apiKeys.map((key) => ({
      id: key.id,
      name: key.name,
      start: key.start,
      enabled: key.enabled,
      expiresAt: key.expiresAt?.toISOString() ?? null,
      createdAt: key.createdAt.toISOString(),
    })),
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const form = await readForm(request);
  await requireViewer(request);
  const auth = await getAuth();
  const intent = field(form, "intent");
  try {
    if (intent === "create") {
      const days = field(form, "expiresIn");
      const { data } = await auth.api.createApiKey({
        body: {
          name: field(form, "name").trim() || undefined,
          expiresIn: days === "never" ? null : Number(days) * 86400,
        },
        headers: request.headers,
      });
      // Shown once, in this answer only: the core stores a hash. With it, a request that carries the
      // key in the core's header is the user's (apiKey.enableSessionForAPIKeys, app/auth.server.ts).
      const { options, apiURL } = auth.context;
      const command = `curl -H "${options.apiKey.header}: ${data.key}" ${apiURL}/get-session`;
      return { created: { name: data.name, key: data.key, command } };
    }
    const keyId = field(form, "keyId");
    if (intent === "delete") await auth.api.deleteApiKey({ body: { keyId }, headers: request.headers });
    else
      await auth.api.updateApiKey({
        body: { keyId, enabled: intent === "enable" },
        headers: request.headers,
      });
    return redirectWith(`/account/api-keys?done=${intent === "delete" ? "deleted" : "updated"}`);
  } catch (error) {
    return failure(error, form, {
      API_KEY_EXPIRES_IN_TOO_LARGE: "expiresIn",
      API_KEY_EXPIRES_IN_TOO_SMALL: "expiresIn",
    });
  }
}

export default function ApiKeys() {
  const { t, lang } = useT();
  const location = useLocation();
  const { keys } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>() as
    | (FormState & { created?: { name: string | null; key: string; command: string } })
    | undefined;
  const format = new Intl.DateTimeFormat(lang, { dateStyle: "medium" });
  return (
    <section aria-labelledby="keys-title">
      <h2 id="keys-title">{t("account.apiKeys.title")}</h2>
      <DoneNotice outcomes={{ deleted: "common.saved", updated: "common.saved" }} state={result} />
      {result?.created ? (
        <div className="notice" role="status">
          <p>{t("account.apiKeys.created")}</p>
          <p className="secret" data-testid="new-api-key">
            {result.created.key}
          </p>
          <CopyButton text={result.created.key} label={t("account.apiKeys.copyKey")} />
          <p>{t("account.apiKeys.usage")}</p>
          <p className="secret">
            <code data-testid="api-key-command">{result.created.command}</code>
          </p>
          <CopyButton text={result.created.command} label={t("account.apiKeys.copyCommand")} />
        </div>
      ) : null}
      <ErrorSummary
        state={result}
        labels={{ name: t("account.apiKeys.name"), expiresIn: t("account.apiKeys.expiresIn") }}
      />
      <table>
        <caption className="muted">{t("account.apiKeys.caption", { count: keys.length })}</caption>
        <thead>
          <tr>
            <th scope="col">{t("account.apiKeys.name")}</th>
            <th scope="col">{t("account.apiKeys.start")}</th>
            <th scope="col">{t("account.apiKeys.expires")}</th>
            <th scope="col">{t("account.apiKeys.status")}</th>
            <th scope="col">{t("common.actions")}</th>
          </tr>
        </thead>
        <tbody>
          {keys.map((key) => (
            <tr key={key.id}>
              <td>{key.name ?? t("account.apiKeys.unnamed")}</td>
              <td>
                <code>{key.start}…</code>
              </td>
              <td>{key.expiresAt ? format.format(new Date(key.expiresAt)) : t("common.never")}</td>
              <td>{key.enabled ? t("account.apiKeys.enabled") : t("account.apiKeys.disabled")}</td>
              <td>
                <Form method="post" className="row-actions">
                  <input type="hidden" name="keyId" value={key.id} />
                  <button
                    type="submit"
                    name="intent"
                    value={key.enabled ? "disable" : "enable"}
                    className="button button-small button-secondary"
                  >
                    {key.enabled ? t("account.apiKeys.disable") : t("account.apiKeys.enable")}
                    <span className="visually-hidden"> {key.name}</span>
                  </button>
                  <button
                    type="submit"
                    name="intent"
                    value="delete"
                    className="button button-small button-danger"
                  >
                    {t("common.delete")}
                    <span className="visually-hidden"> {key.name}</span>
                  </button>
                </Form>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <h3>{t("account.apiKeys.createTitle")}</h3>
      <Form method="post" noValidate key={location.key}>
        <Field name="name" label={t("account.apiKeys.name")} state={result} />
        <div className="field">
          <label htmlFor="field-expiresIn">{t("account.apiKeys.expiresIn")}</label>
          <select id="field-expiresIn" name="expiresIn" defaultValue="30">
            {EXPIRIES.map((days) => (
              <option key={days} value={days}>
                {days === "never" ? t("common.never") : t("account.apiKeys.days", { count: Number(days) })}
              </option>
            ))}
          </select>
        </div>
        <Submit intent="create">{t("account.apiKeys.create")}</Submit>
      </Form>
    </section>
  );
}
