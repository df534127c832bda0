import type { ReactNode } from "react";
import { useT } from "~/lib/i18n";

/** A passkey as the pages show it (the account's list, the admin's user page). */
export interface PasskeyRow {
  id: string;
  name: string | null;
  /** The model's name from its AAGUID when the core knows it ("iCloud Keychain"), else null. */
  authenticatorName: string | null;
  synced: boolean;
  createdAt: string;
  lastUsedAt: string | null;
}

/** A loader's mapping of the core's passkey to what the page needs (dates as ISO strings). */
export function toPasskeyRow(passkey: {
  id: string;
  name?: string | null;
  authenticatorName: string | null;
  deviceType: string;
  createdAt: Date;
  lastUsedAt?: Date | null;
}): PasskeyRow {
  return {
    id: passkey.id,
    name: passkey.name ?? null,
    authenticatorName: passkey.authenticatorName,
    synced: passkey.deviceType === "multiDevice",
    createdAt: passkey.createdAt.toISOString(),
    lastUsedAt: passkey.lastUsedAt?.toISOString() ?? null,
  };
}

/**
 * The passkeys table of the account and of the admin's user page: the same columns and words on
 * both; the name cell (a rename form, or text) and the action (delete, or an admin's remove) differ.
 * `label` is the passkey's name or the "Passkey" a nameless one goes by.
 */
export function PasskeyTable({
  passkeys,
  caption,
  labelledBy,
  renderName,
  renderAction,
}: {
  passkeys: readonly PasskeyRow[];
  caption?: ReactNode;
  labelledBy?: string;
  renderName: (passkey: PasskeyRow, label: string) => ReactNode;
  renderAction: (passkey: PasskeyRow, label: string) => ReactNode;
}) {
  const { t, lang } = useT();
  const format = new Intl.DateTimeFormat(lang, { dateStyle: "medium", timeStyle: "short" });
  const when = (iso: string | null) =>
    iso ? <time dateTime={iso}>{format.format(new Date(iso))}</time> : t("common.never");
  return (
    <table aria-labelledby={labelledBy}>
      {caption ? <caption className="muted">{caption}</caption> : null}
      <thead>
        <tr>
          <th scope="col">{t("account.passkeys.name")}</th>
          <th scope="col">{t("account.passkeys.authenticator")}</th>
          <th scope="col">{t("account.passkeys.kind")}</th>
          <th scope="col">{t("account.passkeys.created")}</th>
          <th scope="col">{t("account.passkeys.lastUsed")}</th>
          <th scope="col">{t("common.actions")}</th>
        </tr>
      </thead>
      <tbody>
        {passkeys.map((passkey) => {
          const label = passkey.name || t("account.passkeys.unnamed");
          return (
            <tr key={passkey.id}>
              <td>{renderName(passkey, label)}</td>
              <td>{passkey.authenticatorName ?? t("account.passkeys.unknownAuthenticator")}</td>
              <td>{passkey.synced ? t("account.passkeys.synced") : t("account.passkeys.deviceBound")}</td>
              <td>{when(passkey.createdAt)}</td>
              <td>{when(passkey.lastUsedAt)}</td>
              <td>{renderAction(passkey, label)}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
