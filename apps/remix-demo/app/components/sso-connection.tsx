import { Form, Link } from "@remix-run/react";
import { useT } from "~/lib/i18n";
import { CopyButton } from "./copy-button";
import { type FormState, Submit, useErrorText, useFieldProblem } from "./form";

/** A connection as routes/organizations.$slug.security_.sso.tsx shows it: no secret in it. */
export interface SsoConnectionView {
  providerId: string;
  type: "oidc" | "saml";
  issuer: string;
  domain: string;
  domainVerified: boolean;
  enabled: boolean;
  redirectURI: string;
  spMetadataUrl: string;
  acsUrl: string;
  clientIdLastFour: string | null;
  entryPoint: string | null;
}

/**
 * One connection: what it is, what to give the IdP, its test, on/off and delete (confirmed; not
 * offered to a setup link's holder, whom the core refuses it).
 */
export function SsoConnectionCard({
  connection,
  deleting,
  canDelete,
  tested,
  state,
}: {
  connection: SsoConnectionView;
  deleting: boolean;
  canDelete: boolean;
  tested: { checks: string[] | null; code: string | null; expiresAt: string | null } | null;
  state: FormState | undefined;
}) {
  const { t } = useT();
  const problem = useFieldProblem()(state, "form");
  const id = connection.providerId;
  const give =
    connection.type === "oidc"
      ? [["redirectURI", connection.redirectURI]]
      : [
          ["spEntityId", connection.spMetadataUrl],
          ["acsUrl", connection.acsUrl],
          ["spMetadataUrl", connection.spMetadataUrl],
        ];
  return (
    <article className="card connection" aria-labelledby={`connection-${id}`} data-provider={id}>
      <h3 id={`connection-${id}`}>
        {id} <span className="badge">{t(`organizations.sso.types.${connection.type}`)}</span>{" "}
        <span className={connection.enabled ? "badge badge-verified" : "badge badge-pending"}>
          {t(connection.enabled ? "organizations.sso.on" : "organizations.sso.off")}
        </span>
      </h3>
      <dl className="facts">
        <dt>{t("organizations.sso.issuer")}</dt>
        <dd>{connection.issuer}</dd>
        <dt>{t("organizations.sso.domain")}</dt>
        <dd>
          {connection.domain}{" "}
          {connection.domainVerified ? null : (
            <span className="muted">{t("organizations.sso.domainUnverified")}</span>
          )}
        </dd>
        {connection.clientIdLastFour ? (
          <>
            <dt>{t("organizations.sso.clientId")}</dt>
            <dd>{connection.clientIdLastFour}</dd>
          </>
        ) : null}
      </dl>
      <h4>{t("organizations.sso.giveIdp")}</h4>
      <dl className="proof">
        {give.map(([name, value]) => (
          <div key={name} className="proof-row">
            <dt>{t(`organizations.sso.${name}`)}</dt>
            <dd>
              <code data-testid={`give-${name}`}>{value}</code>{" "}
              <CopyButton text={value ?? ""} label={t("organizations.domains.copy")} />
            </dd>
          </div>
        ))}
      </dl>
      {tested ? <TestResult {...tested} /> : null}
      {problem ? (
        <p className="field-error" role="alert">
          {problem}
        </p>
      ) : null}
      <Form method="post" className="actions">
        <input type="hidden" name="providerId" value={id} />
        <Submit intent="test" className="button button-secondary">
          {t("organizations.sso.test")}
        </Submit>{" "}
        <Submit intent={connection.enabled ? "disable" : "enable"}>
          {t(connection.enabled ? "organizations.sso.disable" : "organizations.sso.enable")}
        </Submit>
      </Form>
      {!canDelete ? null : deleting ? (
        <Form method="post" className="danger-zone">
          <p className="warning">{t("organizations.sso.deleteWarning", { providerId: id })}</p>
          <input type="hidden" name="providerId" value={id} />
          <Submit intent="delete" className="button button-danger">
            {t("organizations.sso.deleteConfirm", { providerId: id })}
          </Submit>{" "}
          <Link to="?">{t("common.cancel")}</Link>
        </Form>
      ) : (
        <p>
          <Link to={`?delete=${encodeURIComponent(id)}`}>
            {t("organizations.sso.delete", { providerId: id })}
          </Link>
        </p>
      )}
    </article>
  );
}

/** "Test this connection": each check passed in words, or the problem found. */
function TestResult({
  checks,
  code,
  expiresAt,
}: {
  checks: string[] | null;
  code: string | null;
  expiresAt: string | null;
}) {
  const { t, lang } = useT();
  // The certificate's expiry as a day, in UTC so the server's and the browser's renderings agree.
  const date = expiresAt
    ? new Date(expiresAt).toLocaleDateString(lang, { dateStyle: "long", timeZone: "UTC" })
    : "";
  const text = useErrorText();
  if (code !== null) {
    return (
      <div className="error-summary" role="alert" data-testid="sso-test-result">
        <p>{t("organizations.sso.testFailed", { problem: text(code) })}</p>
      </div>
    );
  }
  return (
    <div className="notice" role="status" data-testid="sso-test-result">
      <p>{t("organizations.sso.testPassed")}</p>
      <ul>
        {/* A bare public key has no expiry: its line would name no date, so it is left out. */}
        {(checks ?? [])
          .filter((check) => check !== "certificate" || date !== "")
          .map((check) => (
            <li key={check}>{t(`organizations.sso.checks.${check}`, { defaultValue: check, date })}</li>
          ))}
      </ul>
    </div>
  );
}
