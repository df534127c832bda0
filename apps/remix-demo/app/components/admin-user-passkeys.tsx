import { Form } from "@remix-run/react";
import { type PasskeyRow, PasskeyTable } from "~/components/passkey-table";
import { useT } from "~/lib/i18n";

/**
 * The user's passkeys on the admin's user page, each with a remove button (a lost or stolen
 * authenticator; the core records `passkey.remove` in the audit trail).
 */
export function AdminUserPasskeys({ passkeys }: { passkeys: readonly PasskeyRow[] }) {
  const { t } = useT();
  return (
    <>
      <h3 id="user-passkeys-title">{t("admin.user.passkeys.title")}</h3>
      {passkeys.length === 0 ? (
        <p>{t("admin.user.passkeys.none")}</p>
      ) : (
        <PasskeyTable
          passkeys={passkeys}
          labelledBy="user-passkeys-title"
          renderName={(_passkey, label) => label}
          renderAction={(passkey, label) => (
            <Form method="post">
              <input type="hidden" name="passkeyId" value={passkey.id} />
              <button
                type="submit"
                name="intent"
                value="remove-passkey"
                className="button button-small button-danger"
                aria-label={t("admin.user.passkeys.removeLabel", { name: label })}
              >
                {t("admin.user.passkeys.remove")}
              </button>
            </Form>
          )}
        />
      )}
    </>
  );
}
