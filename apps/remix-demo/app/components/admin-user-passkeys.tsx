import { Form } from "@remix-run/react";
import { useT } from "~/lib/i18n";

/** A passkey as the admin's user page shows it (routes/admin.users.$id.tsx loads them). */
export interface AdminPasskeyRow {
  id: string;
  name: string | null;
  authenticatorName: string | null;
  synced: boolean;
  createdAt: string;
  lastUsedAt: string | null;
}

/**
 * The user's passkeys on the admin's user page, each with a remove button (a lost or stolen
 * authenticator; the core records `passkey.remove` in the audit trail).
 */
export function AdminUserPasskeys({
  passkeys,
  format,
}: {
  passkeys: readonly AdminPasskeyRow[];
  format: Intl.DateTimeFormat;
}) {
  const { t } = useT();
  return (
    <>
      <h3 id="user-passkeys-title">{t("admin.user.passkeys.title")}</h3>
      {passkeys.length === 0 ? (
        <p>{t("admin.user.passkeys.none")}</p>
      ) : (
        <table aria-labelledby="user-passkeys-title">
          <thead>
            <tr>
              <th scope="col">{t("account.passkeys.name")}</th>
              <th scope="col">{t("admin.user.passkeys.authenticator")}</th>
              <th scope="col">{t("account.passkeys.kind")}</th>
              <th scope="col">{t("account.passkeys.created")}</th>
              <th scope="col">{t("account.passkeys.lastUsed")}</th>
              <th scope="col">
                <span className="visually-hidden">{t("admin.user.passkeys.remove")}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {passkeys.map((passkey) => {
              const name = passkey.name ?? t("account.passkeys.unnamed");
              return (
                <tr key={passkey.id}>
                  <td>{name}</td>
                  <td>{passkey.authenticatorName ?? t("admin.user.passkeys.unknown")}</td>
                  <td>{passkey.synced ? t("account.passkeys.synced") : t("account.passkeys.deviceBound")}</td>
                  <td>{format.format(new Date(passkey.createdAt))}</td>
                  <td>{passkey.lastUsedAt ? format.format(new Date(passkey.lastUsedAt)) : "—"}</td>
                  <td>
                    <Form method="post">
                      <input type="hidden" name="passkeyId" value={passkey.id} />
                      <button
                        type="submit"
                        name="intent"
                        value="remove-passkey"
                        className="button button-small button-danger"
                        aria-label={t("admin.user.passkeys.removeLabel", { name })}
                      >
                        {t("admin.user.passkeys.remove")}
                      </button>
                    </Form>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </>
  );
}
