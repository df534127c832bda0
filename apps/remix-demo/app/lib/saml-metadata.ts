/**
 * The three things the SSO page needs from an identity provider's SAML metadata (SAML metadata
 * §2.3-2.4): its entity ID, its single sign-on URL and its signing certificate. Only read to fill
 * the connection's fields; the core verifies every response with the certificate (features/sso/saml).
 * Null for a field the document does not carry.
 */
export interface IdpMetadataFields {
  entityID: string | null;
  entryPoint: string | null;
  cert: string | null;
}

export function readIdpMetadata(xml: string): IdpMetadataFields {
  const entityID = /<(?:\w+:)?EntityDescriptor\b[^>]*\bentityID="([^"]+)"/.exec(xml)?.[1] ?? null;
  const services = [...xml.matchAll(/<(?:\w+:)?SingleSignOnService\b([^>]*)>/g)].map(
    (match) => match[1] ?? "",
  );
  // HTTP-Redirect first: the core sends its AuthnRequest that way.
  const service = services.find((attributes) => attributes.includes("HTTP-Redirect")) ?? services[0];
  const entryPoint = service ? (/\bLocation="([^"]+)"/.exec(service)?.[1] ?? null) : null;
  const signing =
    /<(?:\w+:)?KeyDescriptor\b(?![^>]*use="encryption")[^>]*>[\s\S]*?<(?:\w+:)?X509Certificate>([^<]+)</.exec(
      xml,
    );
  const cert = signing?.[1]?.replace(/\s+/g, "") ?? null;
  return { entityID, entryPoint, cert: cert ? toPem(cert) : null };
}

function toPem(base64: string): string {
  const lines = base64.match(/.{1,64}/g) ?? [];
  return `-----BEGIN CERTIFICATE-----\n${lines.join("\n")}\n-----END CERTIFICATE-----`;
}
