import { MailState } from "~/components/mail-state";
import { useT } from "~/lib/i18n";

export interface UserMailRow {
  id: string;
  kind: string;
  state: string;
  attempts: number;
  lastError: string | null;
  createdAt: string;
}

/**
 * The user's recent mails on the admin's user page (POST /admin/list-user-mails): whether each
 * left, and the mail server's last answer when it did not. The core never answers a body.
 */
export function AdminUserMails({
  mails,
  format,
}: {
  mails: readonly UserMailRow[];
  format: Intl.DateTimeFormat;
}) {
  const { t } = useT();
  return (
    <>
      <h3 id="user-mails-title">{t("admin.user.mails.title")}</h3>
      {mails.length === 0 ? (
        <p>{t("admin.user.mails.none")}</p>
      ) : (
        <table aria-labelledby="user-mails-title" data-testid="user-mails">
          <thead>
            <tr>
              <th scope="col">{t("admin.user.mails.when")}</th>
              <th scope="col">{t("admin.user.mails.kind")}</th>
              <th scope="col">{t("admin.user.mails.state")}</th>
              <th scope="col">{t("admin.user.mails.attempts")}</th>
              <th scope="col">{t("admin.user.mails.lastError")}</th>
            </tr>
          </thead>
          <tbody>
            {mails.map((mail) => (
              <tr key={mail.id}>
                <td>
                  <time dateTime={mail.createdAt}>{format.format(new Date(mail.createdAt))}</time>
                </td>
                <td>
                  <code>{mail.kind}</code>
                </td>
                <td>
                  <MailState state={mail.state} />
                </td>
                <td>{mail.attempts}</td>
                <td>{mail.lastError ?? "—"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
