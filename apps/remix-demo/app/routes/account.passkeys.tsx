import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useLocation, useNavigate } from "@remix-run/react";
import { useState } from "react";
import { getAuth } from "~/auth.server";
import { DoneNotice, ErrorSummary } from "~/components/form";
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

/**
 * "Add a passkey": a WebAuthn ceremony, so JavaScript only. Success goes to `?done=added` like the
 * page's other outcomes, so one notice tells what happened last (a kept local one stayed beside a
 * later "renamed" or a refused rename).
 */
function AddPasskey() {
  const { t } = useT();
  const navigate = useNavigate();
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  async function add() {
    setBusy(true);
    setError(undefined);
    const result = await authClient.passkey.addPasskey();
    setBusy(false);
    if (!result.data) return setError(result.error.code);
    navigate("/account/passkeys?done=added", { replace: true, preventScrollReset: true });
  }

  return (
    <div className="passkey">
      <PasskeyButton
        label={t("account.passkeys.add")}
        busy={busy}
        error={error}
        onClick={add}
        className="button"
      />
    </div>
  );
}

/** The notice of `?done=`, for the page's last outcome. */
const DONE = {
  added: "account.passkeys.added",
  deleted: "account.passkeys.deleted",
  renamed: "account.passkeys.renamed",
};

export default function Passkeys() {
  const { t } = useT();
  const { passkeys } = useLoaderData<typeof loader>();
  const state = useActionData<typeof action>();
  // A location per outcome: the add button's last failure goes with the page it happened on.
  const { key } = useLocation();
  return (
    <section aria-labelledby="passkeys-title">
      <h2 id="passkeys-title">{t("account.passkeys.title")}</h2>
      <p>{t("account.passkeys.intro")}</p>
      {/* A refused rename since: its problem is the news, not the outcome before it. */}
      <DoneNotice outcomes={DONE} state={state} />
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
      <AddPasskey key={key} />
    </section>
  );
}
