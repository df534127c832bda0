import { Form } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { useT } from "~/lib/i18n";
import { Submit } from "./form";

/**
 * A password or mailed-link sign-in refused with SSO_REQUIRED: the catalogue's sentence, which names
 * the organization, and a button that starts its single sign-on for the same address. Focused like
 * the error summary, so a screen reader announces it.
 */
export function SsoRequired({
  organization,
  email,
  redirectTo,
}: {
  organization: string;
  email: string;
  redirectTo: string;
}) {
  const { t } = useT();
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => box.current?.focus(), []);
  // The catalogue writes its parameters in single braces (@tessera/auth-core/i18n).
  const sentence = t("errors.SSO_REQUIRED").replace("{organization}", organization);
  return (
    <div className="error-summary" role="alert" tabIndex={-1} ref={box} data-testid="sso-required">
      <p>{sentence}</p>
      <Form method="post">
        <input type="hidden" name="email" value={email} />
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <Submit intent="sso" className="button button-wide">
          {t("signIn.ssoContinue", { organization })}
        </Submit>
      </Form>
    </div>
  );
}
