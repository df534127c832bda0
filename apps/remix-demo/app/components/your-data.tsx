import { Form } from "@remix-run/react";
import { Submit, useErrorText } from "~/components/form";
import { useT } from "~/lib/i18n";

/** Refusals that a new sign-in answers: the export asks for a fresh session. */
const NEEDS_NEW_SIGN_IN = new Set(["SESSION_NOT_FRESH", "SESSION_EXPIRED_REAUTHENTICATE"]);

/**
 * "Download my data" on the account page. The button is a plain form (not Remix's): the browser
 * posts it as a document and saves the JSON file routes/account.export.ts answers. `error` is the
 * code that route sent back; a stale session gets a button that signs out and in again.
 */
export function YourData({ error }: { error: string | null }) {
  const { t } = useT();
  const text = useErrorText();
  return (
    <section aria-labelledby="your-data-title" id="your-data">
      <h3 id="your-data-title">{t("account.data.title")}</h3>
      <p>{t("account.data.intro")}</p>
      {error ? (
        <p className="warning" role="alert">
          {text(error)}
        </p>
      ) : null}
      {error && NEEDS_NEW_SIGN_IN.has(error) ? (
        <Form method="post">
          <Submit intent="sign-in-again">{t("account.data.signInAgain")}</Submit>
        </Form>
      ) : (
        <form method="post" action="/account/export">
          <button type="submit" className="button button-secondary">
            {t("account.data.download")}
          </button>
        </form>
      )}
    </section>
  );
}
