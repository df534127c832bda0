import { useT } from "~/lib/i18n";

/** A mail's state from the core's outbox (features/mail-outbox), in words; "—" when none was queued. */
export function MailState({ state }: { state: string | null }) {
  const { t } = useT();
  if (state === null) return <>—</>;
  return <span className={`mail-state mail-state-${state}`}>{t(`mailStates.${state}`)}</span>;
}
