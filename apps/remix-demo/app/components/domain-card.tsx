import { Form, Link } from "@remix-run/react";
import { useT } from "~/lib/i18n";
import { CopyButton } from "./copy-button";
import { ErrorSummary, Field, type FormState, Submit, useFieldProblem } from "./form";

/** What to publish (contracts/sso-domains.ts DomainProof). */
interface DomainProof {
  txtName: string;
  txtValue: string;
  fileURL: string;
  fileBody: string;
}

/** A domain as routes/organizations.$slug.security_.domains.tsx shows it ("expired": a lapsed claim). */
export interface DomainView {
  domain: string;
  status: "pending" | "verified" | "expired";
  settings: { autoJoin: boolean; autoJoinRole: string; requireSso: boolean };
  verifiedAt: string | null;
  expiresAt: string | null;
  proof: DomainProof | null;
}

function formatDate(iso: string, lang: string): string {
  return new Date(iso).toLocaleDateString(lang, { year: "numeric", month: "long", day: "numeric" });
}

/**
 * One domain: its status, the proof to publish, "Verify now", its settings, remove (confirmed).
 * For a member who may not change it (canManage false), what it does in words and no form.
 */
export function DomainCard({
  domain,
  roles,
  removing,
  state,
  pageKey,
  canManage,
}: {
  domain: DomainView;
  roles: string[];
  removing: boolean;
  state: FormState | undefined;
  pageKey: string;
  canManage: boolean;
}) {
  const { t, lang } = useT();
  const problem = useFieldProblem()(state, "form");
  const statusText = t(`organizations.domains.status.${domain.status}`);
  return (
    <article className="card domain" aria-labelledby={`domain-${domain.domain}`} data-domain={domain.domain}>
      <h3 id={`domain-${domain.domain}`}>
        {domain.domain} <span className={`badge badge-${domain.status}`}>{statusText}</span>
      </h3>
      {domain.verifiedAt ? (
        <p>{t("organizations.domains.verifiedOn", { date: formatDate(domain.verifiedAt, lang) })}</p>
      ) : null}
      {domain.status === "pending" && domain.expiresAt ? (
        <p>{t("organizations.domains.expires", { date: formatDate(domain.expiresAt, lang) })}</p>
      ) : null}
      {domain.status === "expired" ? <p>{t("organizations.domains.expiredHint")}</p> : null}
      {canManage ? null : <DomainSettingsSummary domain={domain} />}
      {canManage ? (
        <DomainActions
          domain={domain}
          roles={roles}
          removing={removing}
          problem={problem}
          pageKey={pageKey}
        />
      ) : null}
    </article>
  );
}

/** What a verified domain does, for members who may not change it. */
function DomainSettingsSummary({ domain }: { domain: DomainView }) {
  const { t } = useT();
  const { autoJoin, autoJoinRole, requireSso } = domain.settings;
  const role = t(`organizations.roles.${autoJoinRole}`, { defaultValue: autoJoinRole });
  return (
    <ul data-testid="domain-settings">
      <li>
        {t(autoJoin ? "organizations.domains.memberAutoJoin" : "organizations.domains.memberNoAutoJoin", {
          domain: domain.domain,
          role,
        })}
      </li>
      {requireSso ? <li>{t("organizations.domains.memberRequireSso", { domain: domain.domain })}</li> : null}
    </ul>
  );
}

/** The manager's part of a card: verify, settings, remove. */
function DomainActions({
  domain,
  roles,
  removing,
  problem,
  pageKey,
}: {
  domain: DomainView;
  roles: string[];
  removing: boolean;
  problem: string | null;
  pageKey: string;
}) {
  const { t } = useT();
  return (
    <>
      {domain.proof && domain.status === "pending" ? <DomainProofView proof={domain.proof} /> : null}
      {domain.status === "pending" ? (
        <Form method="post" noValidate>
          <input type="hidden" name="domain" value={domain.domain} />
          {problem ? (
            <p className="field-error" role="alert" data-testid="domain-problem">
              {problem}
            </p>
          ) : null}
          <Submit intent="verify">{t("organizations.domains.verify")}</Submit>
        </Form>
      ) : null}
      {domain.status === "verified" ? (
        <DomainSettingsForm domain={domain} roles={roles} key={pageKey} />
      ) : null}
      {removing ? (
        <Form method="post" className="danger-zone" noValidate>
          <p className="warning">{t("organizations.domains.removeWarning", { domain: domain.domain })}</p>
          <input type="hidden" name="domain" value={domain.domain} />
          <Submit intent="remove" className="button button-danger">
            {t("organizations.domains.removeConfirm", { domain: domain.domain })}
          </Submit>{" "}
          <Link to="?">{t("common.cancel")}</Link>
        </Form>
      ) : (
        <p>
          <Link to={`?remove=${encodeURIComponent(domain.domain)}`}>
            {t("organizations.domains.remove", { domain: domain.domain })}
          </Link>
        </p>
      )}
    </>
  );
}

/** The two proofs, either of which verifies the domain (features/sso-domains/proof.ts). */
function DomainProofView({ proof }: { proof: DomainProof }) {
  const { t } = useT();
  const rows = [
    [
      "txtTitle",
      [
        ["txtName", proof.txtName],
        ["txtValue", proof.txtValue],
      ],
    ],
    [
      "fileTitle",
      [
        ["fileURL", proof.fileURL],
        ["fileBody", proof.fileBody],
      ],
    ],
  ] as const;
  return (
    <div>
      <p>{t("organizations.domains.proofIntro")}</p>
      {rows.map(([title, fields]) => (
        <div key={title}>
          <h4>{t(`organizations.domains.${title}`)}</h4>
          <dl className="proof">
            {fields.map(([name, value]) => (
              <div key={name} className="proof-row">
                <dt>{t(`organizations.domains.${name}`)}</dt>
                <dd>
                  <code data-testid={`proof-${name}`}>{value}</code>{" "}
                  <CopyButton text={value} label={t("organizations.domains.copy")} />
                </dd>
              </div>
            ))}
          </dl>
        </div>
      ))}
    </div>
  );
}

function DomainSettingsForm({ domain, roles }: { domain: DomainView; roles: string[] }) {
  const { t } = useT();
  const id = (name: string) => `${name}-${domain.domain}`;
  return (
    <Form method="post" noValidate>
      <fieldset>
        <legend>{t("organizations.domains.settingsTitle")}</legend>
        <input type="hidden" name="domain" value={domain.domain} />
        <div className="checkbox">
          <input
            id={id("autoJoin")}
            type="checkbox"
            name="autoJoin"
            defaultChecked={domain.settings.autoJoin}
          />
          <label htmlFor={id("autoJoin")}>
            {t("organizations.domains.autoJoin", { domain: domain.domain })}
          </label>
        </div>
        <div className="field">
          <label htmlFor={id("autoJoinRole")}>{t("organizations.domains.autoJoinRole")}</label>
          <select id={id("autoJoinRole")} name="autoJoinRole" defaultValue={domain.settings.autoJoinRole}>
            {roles.map((role) => (
              <option key={role} value={role}>
                {t(`organizations.roles.${role}`, { defaultValue: role })}
              </option>
            ))}
          </select>
        </div>
        <div className="checkbox">
          <input
            id={id("requireSso")}
            type="checkbox"
            name="requireSso"
            defaultChecked={domain.settings.requireSso}
          />
          <label htmlFor={id("requireSso")}>
            {t("organizations.domains.requireSso", { domain: domain.domain })}
          </label>
        </div>
        <p className="hint">{t("organizations.domains.requireSsoHint")}</p>
      </fieldset>
      <Submit intent="settings">{t("organizations.domains.saveSettings")}</Submit>
    </Form>
  );
}

/** Claims a new domain; its refusals (free-mail domain, claimed elsewhere…) go under the field. */
export function DomainClaimForm({ state }: { state: FormState | undefined }) {
  const { t } = useT();
  const label = t("organizations.domains.domain");
  return (
    <Form method="post" noValidate>
      <h3>{t("organizations.domains.addTitle")}</h3>
      <ErrorSummary state={state} labels={{ domain: label }} />
      <Field
        name="domain"
        label={label}
        hint={t("organizations.domains.domainHint")}
        state={state}
        autoComplete="off"
      />
      <Submit intent="add">{t("organizations.domains.add")}</Submit>
    </Form>
  );
}
