import { Form } from "@remix-run/react";
import { Submit } from "~/components/form";
import { useT } from "~/lib/i18n";

/**
 * Why a page waits for a verified address, with a button that mails the link again: it posts
 * intent "resend-verification" to the page's own action, which redirects back with `?sent=1`.
 */
export function VerifyEmailFirst({
  message,
  sent,
  isRefusal = false,
}: {
  message: string;
  sent: boolean;
  /** The page refused what the user came for (announced as an alert), rather than left part out. */
  isRefusal?: boolean;
}) {
  const { t } = useT();
  return (
    <div className="warning">
      <p role={isRefusal ? "alert" : undefined}>{message}</p>
      {sent ? (
        <p role="status">{t("account.profile.verificationSent")}</p>
      ) : (
        <Form method="post">
          <Submit intent="resend-verification" className="button button-secondary">
            {t("account.profile.resendVerification")}
          </Submit>
        </Form>
      )}
    </div>
  );
}
