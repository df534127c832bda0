/**
 * How an app's mails leave it, decided from its settings (SMTP_URL, TESSERA_MAIL, production or
 * not): the one rule the demo app and the app `tessera create` writes both start with.
 */
export type MailDelivery = "smtp" | "outbox" | "disabled";

export interface MailDeliverySettings {
  /** TESSERA_MAIL: unset, or "disabled" to run without mail on purpose. */
  mail: string | undefined;
  /** SMTP_URL. */
  smtpUrl: string | undefined;
  isProduction: boolean;
}

/**
 * Over SMTP when SMTP_URL is set, nowhere with TESSERA_MAIL=disabled, else into the dev outbox —
 * outside production only: production has no outbox anyone can read (/dev/outbox answers 404), so a
 * missing SMTP_URL is refused (`refusal`, the sentence the app stops with) rather than every
 * verification, reset and invitation mail silently lost.
 */
export function chooseMailDelivery(
  settings: MailDeliverySettings,
): { delivery: MailDelivery; refusal?: undefined } | { delivery?: undefined; refusal: string } {
  const mail = settings.mail?.trim();
  if (mail && mail !== "disabled")
    return { refusal: `TESSERA_MAIL must be unset or "disabled", not "${mail}"` };
  if (mail === "disabled") return { delivery: "disabled" };
  if (settings.smtpUrl?.trim()) return { delivery: "smtp" };
  if (!settings.isProduction) return { delivery: "outbox" };
  return {
    refusal:
      "SMTP_URL must be set in production (smtp://user:pass@host:587 or smtps://…:465): without it " +
      "no verification, password reset or invitation mail reaches anyone. To run without mail " +
      "on purpose, set TESSERA_MAIL=disabled.",
  };
}

/** Printed at start with TESSERA_MAIL=disabled: which mails will reach nobody. */
export const MAIL_DISABLED_WARNING = [
  "  WARNING: mail is disabled (TESSERA_MAIL=disabled). These mails will be lost:",
  "    email verification, password reset, email change confirmation and notice, account",
  "    deletion confirmation, organization invitations, emailed two-factor codes, API keys",
  "    revoked notices. Set SMTP_URL to send them.",
].join("\n");
