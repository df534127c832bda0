import { SAML_CLOCK_SKEW_MS } from "./rules.ts";

/**
 * Everything the SAML checks need to know about one connection, worked out once from its stored
 * samlConfig (Better Auth's register payload: docs/security.md "SAML").
 */
export interface SamlConnection {
  providerId: string;
  /** The IdP's entity id: the signed Issuer every assertion must carry. */
  idpEntityId: string;
  /** The IdP's single sign-on URL (HTTP-Redirect binding). */
  ssoUrl: string;
  /** The IdP's signing certificates, PEM; several during a rotation. */
  certificates: string[];
  /** Our entity id towards this IdP (the AuthnRequest's Issuer). */
  spEntityId: string;
  /** The Audience assertions must name; the SP entity id unless the connection names another. */
  audience: string;
  /** Our ACS for this connection: `{apiURL}/sso/saml2/sp/acs/{providerId}`. */
  acsUrl: string;
  wantAssertionsSigned: boolean;
  /** A response no AuthnRequest of ours asked for (no InResponseTo): refused unless true. */
  allowIdpInitiated: boolean;
  clockSkewMs: number;
  identifierFormat: string | null;
}

/** The stored samlConfig fields read here (the rest of Better Auth's payload is kept, not used). */
export interface StoredSamlConfig {
  entryPoint: string;
  cert?: string | string[] | undefined;
  audience?: string | undefined;
  idpMetadata?: { entityID?: string | undefined; cert?: string | string[] | undefined } | undefined;
  spMetadata?: { entityID?: string | undefined } | undefined;
  wantAssertionsSigned?: boolean | undefined;
  identifierFormat?: string | undefined;
  allowIdpInitiated?: boolean | undefined;
}

/** The ACS URL of a provider, as the SP metadata and every AuthnRequest name it. */
export function samlAcsUrl(apiURL: string, providerId: string): string {
  return `${apiURL}/sso/saml2/sp/acs/${encodeURIComponent(providerId)}`;
}

/**
 * The certificates a sign-in verifies against, as "Test this connection" reads them too:
 * idpMetadata.cert wins over the top-level cert, as in Better Auth; blank entries are none.
 */
export function trustedCertificates(config: Pick<StoredSamlConfig, "cert" | "idpMetadata">): string[] {
  return [config.idpMetadata?.cert ?? config.cert ?? []].flat().filter((cert) => cert.trim() !== "");
}

/**
 * A connection from its stored config; null when it lacks what verification needs (an IdP entity
 * id and a certificate). `issuer` is the provider's top-level issuer, which names the service
 * provider for SAML (as in Better Auth) unless spMetadata.entityID does.
 */
export function toSamlConnection(
  provider: { providerId: string; issuer: string; samlConfig: StoredSamlConfig },
  apiURL: string,
): SamlConnection | null {
  const config = provider.samlConfig;
  const idpEntityId = config.idpMetadata?.entityID;
  const certificates = trustedCertificates(config);
  if (!idpEntityId || certificates.length === 0) return null;
  const spEntityId = config.spMetadata?.entityID ?? provider.issuer;
  return {
    providerId: provider.providerId,
    idpEntityId,
    ssoUrl: config.entryPoint,
    certificates,
    spEntityId,
    audience: config.audience ?? spEntityId,
    acsUrl: samlAcsUrl(apiURL, provider.providerId),
    // Signed assertions unless the connection turns it off (docs/security.md "SAML").
    wantAssertionsSigned: config.wantAssertionsSigned ?? true,
    allowIdpInitiated: config.allowIdpInitiated ?? false,
    clockSkewMs: SAML_CLOCK_SKEW_MS,
    identifierFormat: config.identifierFormat ?? null,
  };
}
