import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useRevalidator, useSearchParams } from "@remix-run/react";
import { useState } from "react";
import { getAuth } from "~/auth.server";
import { ErrorSummary, Notice } from "~/components/form";
import { PasskeyTable, toPasskeyRow } from "~/components/passkey-table";
import { PasskeyButton } from "~/components/passkeys";
import { authClient } from "~/lib/auth-client";
import { failure, field, invalid, readForm, redirectWith } from "~/lib/forms.server";
import { useT } from "~/lib/i18n";
import { requireViewer } from "~/lib/session.server";

export const handle = { title: "account.tabs.passkeys" };

export async function loader({ request }: LoaderFunctionArgs) {
  await requireViewer(request);
  const auth = await getAuth();
  const { data } = await auth.api.listPasskeys({ headers: request.headers });
  return { passkeys: data.map(toPasskeyRow) };
}

export async function action({ request }: ActionFunctionArgs) {
  const form = await readForm(request);
  await requireViewer(request);
  const auth = await getAuth();
  const id = field(form, "passkeyId");
  try {
    if (field(form, "intent") === "delete") {
      await auth.api.deletePasskey({ body: { id }, headers: request.headers });
      return redirectWith("/account/passkeys?done=deleted");
    }
    if (field(form, "name").trim() === "") return invalid({ form: "NAME_REQUIRED" }, form);
    await auth.api.updatePasskey({ body: { id, name: field(form, "name") }, headers: request.headers });
    return redirectWith("/account/passkeys?done=renamed");
  } catch (error) {
    // A name the core refuses (empty, too long) is about the form, not one field of the list.
    return failure(error, form, { VALIDATION_ERROR: "form" });
  }
}

/** "Add a passkey": a WebAuthn ceremony, so JavaScript only; the list reloads after it. */
function AddPasskey() {
  const { t } = useT();
  const revalidator = useRevalidator();
  const [outcome, setOutcome] = useState<{ added: true } | { error: string } | null>(null);
  const [busy, setBusy] = useState(false);

  async function add() {
    setBusy(true);
    setOutcome(null);
    const result = await authClient.passkey.addPasskey();
    setBusy(false);
    if (!result.data) return setOutcome({ error: result.error.code });
    setOutcome({ added: true });
    revalidator.revalidate();
  }

  return (
    <div className="passkey">
      {outcome && "added" in outcome ? <Notice>{t("account.passkeys.added")}</Notice> : null}
      <PasskeyButton
        label={t("account.passkeys.add")}
        busy={busy}
        error={outcome && "error" in outcome ? outcome.error : undefined}
        onClick={add}
        className="button"
      />
    </div>
  );
}

export default function Passkeys() {
  const { t } = useT();
  const { passkeys } = useLoaderData<typeof loader>();
  const state = useActionData<typeof action>();
  const [params] = useSearchParams();
  const done = params.get("done");
  return (
    <section aria-labelledby="passkeys-title">
      <h2 id="passkeys-title">{t("account.passkeys.title")}</h2>
      <p>{t("account.passkeys.intro")}</p>
      {done ? <Notice>{t(`account.passkeys.${done === "deleted" ? "deleted" : "renamed"}`)}</Notice> : null}
      <ErrorSummary state={state} />
      {passkeys.length === 0 ? (
        <p className="muted">{t("account.passkeys.none")}</p>
      ) : (
        <PasskeyTable
          passkeys={passkeys}
          caption={t("account.passkeys.caption", { count: passkeys.length })}
          renderName={(passkey, label) => (
            <Form method="post" className="inline-form">
              <input type="hidden" name="passkeyId" value={passkey.id} />
              <label className="visually-hidden" htmlFor={`passkey-name-${passkey.id}`}>
                {t("account.passkeys.nameOf", { name: label })}
              </label>
              <input
                id={`passkey-name-${passkey.id}`}
                name="name"
                defaultValue={passkey.name ?? ""}
                placeholder={t("account.passkeys.unnamed")}
                maxLength={100}
              />{" "}
              <button type="submit" name="intent" value="rename" className="button button-small">
                {t("account.passkeys.rename")}
                <span className="visually-hidden"> {label}</span>
              </button>
            </Form>
          )}
          renderAction={(passkey, label) => (
            <Form method="post">
              <input type="hidden" name="passkeyId" value={passkey.id} />
              <button
                type="submit"
                name="intent"
                value="delete"
                className="button button-small button-danger"
              >
                {t("common.delete")}
                <span className="visually-hidden"> {label}</span>
              </button>
            </Form>
          )}
        />
      )}
      <AddPasskey />
    </section>
  );
}
