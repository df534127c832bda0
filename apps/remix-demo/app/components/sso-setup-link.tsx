import { Form } from "@remix-run/react";
import { useT } from "~/lib/i18n";
import { CopyButton } from "./copy-button";
import { ErrorSummary, Field, type FormState, Submit } from "./form";

function formatDateTime(iso: string, lang: string): string {
  return new Date(iso).toLocaleString(lang, { dateStyle: "long", timeStyle: "short" });
}

/**
 * "Send a setup link to your IT admin" (issue 31 §2): the link opens the SSO form of this one
 * organization for someone without an account (routes/sso-setup.$token.tsx). The URL is shown once,
 * in the answer that made it: the core keeps only its hash (features/sso/setup-link.ts).
 */
export function SsoSetupLinkForm({
  link,
  state,
}: {
  link: { url: string; expiresAt: string } | null;
  state: FormState | undefined;
}) {
  const { t, lang } = useT();
  const label = t("organizations.sso.setupLink.email");
  return (
    <Form method="post" noValidate className="setup-link">
      <h3>{t("organizations.sso.setupLink.title")}</h3>
      <p>{t("organizations.sso.setupLink.intro")}</p>
      {link ? (
        <div className="notice" role="status" data-testid="setup-link">
          <p>{t("organizations.sso.setupLink.created")}</p>
          <div className="field">
            <label htmlFor="setup-link-url">{t("organizations.sso.setupLink.url")}</label>
            <input id="setup-link-url" type="text" readOnly value={link.url} data-testid="setup-link-url" />
          </div>
          <CopyButton text={link.url} label={t("organizations.domains.copy")} />
          <p data-testid="setup-link-expiry">
            {t("organizations.sso.setupLink.expires", { date: formatDateTime(link.expiresAt, lang) })}
          </p>
        </div>
      ) : null}
      <ErrorSummary state={state} labels={{ email: label }} />
      <Field
        name="email"
        type="email"
        label={label}
        hint={t("organizations.sso.setupLink.emailHint")}
        state={state}
        autoComplete="off"
      />
      <Submit intent="setup-link" className="button button-secondary">
        {t("organizations.sso.setupLink.create")}
      </Submit>
    </Form>
  );
}
