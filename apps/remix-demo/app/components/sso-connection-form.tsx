import { Form } from "@remix-run/react";
import { useEffect, useState } from "react";
import { useT } from "~/lib/i18n";
import { ErrorSummary, Field, type FormState, Submit, useFieldProblem } from "./form";
import { SsoGivePreview } from "./sso-give-preview";

/**
 * Adds a connection (lib/sso-connections.server.ts reads it). Without JavaScript both protocols'
 * fields show, the radio choosing which count; with it, only the chosen protocol's, and the
 * addresses to give the identity provider follow the connection name as it is typed.
 */
export function SsoConnectionForm({ state, apiURL }: { state: FormState | undefined; apiURL: string }) {
  const { t } = useT();
  const [type, setType] = useState<"oidc" | "saml">(state?.values?.type === "saml" ? "saml" : "oidc");
  const [providerId, setProviderId] = useState(state?.values?.providerId ?? "");
  const [isHydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const label = (name: string) => t(`organizations.sso.fields.${name}`);
  const names = [
    "providerId",
    "domain",
    "issuer",
    "clientId",
    "clientSecret",
    "discoveryEndpoint",
    "entryPoint",
    "cert",
    "metadata",
  ];
  const labels = Object.fromEntries(names.map((name) => [name, label(name)]));
  return (
    <Form method="post" noValidate>
      <h3>{t("organizations.sso.addTitle")}</h3>
      <ErrorSummary state={state} labels={labels} />
      <fieldset>
        <legend>{t("organizations.sso.protocol")}</legend>
        {(["oidc", "saml"] as const).map((value) => (
          <div className="checkbox" key={value}>
            <input
              id={`type-${value}`}
              type="radio"
              name="type"
              value={value}
              checked={type === value}
              onChange={() => setType(value)}
            />
            <label htmlFor={`type-${value}`}>{t(`organizations.sso.types.${value}Long`)}</label>
          </div>
        ))}
      </fieldset>
      <Field
        name="providerId"
        label={labels.providerId!}
        hint={t("organizations.sso.hints.providerId")}
        state={state}
        autoComplete="off"
        onChange={(event) => setProviderId(event.currentTarget.value)}
      />
      <SsoGivePreview apiURL={apiURL} type={type} providerId={providerId} />
      <Field
        name="domain"
        label={labels.domain!}
        hint={t("organizations.sso.hints.domain")}
        state={state}
        autoComplete="off"
      />
      <Field
        name="issuer"
        type="url"
        label={labels.issuer!}
        hint={t(`organizations.sso.hints.issuer${type === "saml" ? "Saml" : ""}`)}
        state={state}
      />
      {!isHydrated || type === "oidc" ? (
        <fieldset>
          <legend>{t("organizations.sso.oidcTitle")}</legend>
          <Field name="clientId" label={labels.clientId!} state={state} autoComplete="off" />
          <Field
            name="clientSecret"
            type="password"
            label={labels.clientSecret!}
            hint={t("organizations.sso.hints.clientSecret")}
            state={state}
            autoComplete="off"
          />
          <Field
            name="discoveryEndpoint"
            type="url"
            label={labels.discoveryEndpoint!}
            hint={t("organizations.sso.hints.discoveryEndpoint")}
            state={state}
          />
        </fieldset>
      ) : null}
      {!isHydrated || type === "saml" ? (
        <fieldset>
          <legend>{t("organizations.sso.samlTitle")}</legend>
          <TextArea
            name="metadata"
            label={labels.metadata!}
            hint={t("organizations.sso.hints.metadata")}
            state={state}
            rows={6}
          />
          <Field
            name="entryPoint"
            type="url"
            label={labels.entryPoint!}
            hint={t("organizations.sso.hints.entryPoint")}
            state={state}
          />
          <TextArea
            name="cert"
            label={labels.cert!}
            hint={t("organizations.sso.hints.cert")}
            state={state}
            rows={4}
          />
        </fieldset>
      ) : null}
      <p className="hint">{t("organizations.sso.addHint")}</p>
      <Submit intent="add">{t("organizations.sso.add")}</Submit>
    </Form>
  );
}

function TextArea({
  name,
  label,
  hint,
  state,
  rows,
}: {
  name: string;
  label: string;
  hint: string;
  state: FormState | undefined;
  rows: number;
}) {
  const problem = useFieldProblem()(state, name);
  const id = `field-${name}`;
  return (
    <div className={problem ? "field field-invalid" : "field"}>
      <label htmlFor={id}>{label}</label>
      <p className="hint" id={`${id}-hint`}>
        {hint}
      </p>
      {problem ? (
        <p className="field-error" id={`${id}-error`}>
          {problem}
        </p>
      ) : null}
      <textarea
        id={id}
        name={name}
        rows={rows}
        defaultValue={state?.values?.[name] ?? ""}
        aria-describedby={problem ? `${id}-hint ${id}-error` : `${id}-hint`}
        aria-invalid={problem ? true : undefined}
      />
    </div>
  );
}
