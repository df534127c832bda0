import { useEffect, useState } from "react";
import { useT } from "~/lib/i18n";
import { CopyButton } from "./copy-button";

/**
 * What the IT admin must give their identity provider, worked out from the connection name as they
 * type it, before the connection exists (issue 31): the shapes are the core's — the OIDC redirect
 * URI of features/sso/service.ts, the ACS URL of features/sso/saml/connection.ts (samlAcsUrl) and
 * the SP metadata URL, which is also the entity ID lib/sso-connections.server.ts registers.
 * tests/browser/sso-register-form.test.ts checks them against what the core answers once added.
 * `apiURL` comes from the server (the routes' loaders: auth.context.apiURL).
 */
function ssoAddressesFor(
  apiURL: string,
  type: "oidc" | "saml",
  providerId: string,
): [name: string, value: string][] {
  const id = encodeURIComponent(providerId);
  if (type === "oidc") return [["redirectURI", `${apiURL}/sso/callback/${id}`]];
  const metadata = `${apiURL}/sso/saml2/sp/metadata?providerId=${id}`;
  return [
    ["spEntityId", metadata],
    ["acsUrl", `${apiURL}/sso/saml2/sp/acs/${id}`],
    ["spMetadataUrl", metadata],
  ];
}

/**
 * Rendered once hydrated (it follows typing), or without JavaScript when the form came back with a
 * name in it; the added connection's card shows the same addresses from the core.
 */
export function SsoGivePreview({
  apiURL,
  type,
  providerId,
}: {
  apiURL: string;
  type: "oidc" | "saml";
  providerId: string;
}) {
  const { t } = useT();
  const [isHydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const name = providerId.trim();
  if (!isHydrated && name === "") return null;
  return (
    <section className="give-preview" aria-labelledby="give-preview-title" aria-live="polite">
      <h4 id="give-preview-title">{t("organizations.sso.giveIdp")}</h4>
      {name === "" ? (
        <p className="hint" data-testid="give-preview-empty">
          {t("organizations.sso.previewEmpty")}
        </p>
      ) : (
        <dl className="proof">
          {ssoAddressesFor(apiURL, type, name).map(([key, value]) => (
            <div key={key} className="proof-row">
              <dt>{t(`organizations.sso.${key}`)}</dt>
              <dd>
                <code data-testid={`preview-${key}`}>{value}</code>{" "}
                <CopyButton text={value} label={t("organizations.domains.copy")} />
              </dd>
            </div>
          ))}
        </dl>
      )}
    </section>
  );
}
