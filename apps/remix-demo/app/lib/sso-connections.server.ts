import type { Auth } from "@tessera/auth-core";
import { readAppEnv } from "./env.server";
import { field } from "./forms.server";
import { readIdpMetadata } from "./saml-metadata";

type RegisterBody = Parameters<Auth["api"]["registerSSOProvider"]>[0]["body"];

/**
 * The body of /sso/register from the SSO page's form (routes/organizations.$slug.security_.sso.tsx).
 * A new connection starts turned off: the owner tests it, then turns it on (issue 31 §2). Null with
 * the field to fix when the form lacks what the chosen protocol needs.
 */
export function readRegisterForm(
  form: FormData,
  organizationId: string,
): { body: RegisterBody } | { missing: Record<string, string> } {
  const providerId = field(form, "providerId").trim();
  const common = { providerId, domain: field(form, "domain").trim(), organizationId, enabled: false };
  if (field(form, "type") === "saml") {
    const metadata = field(form, "metadata").trim();
    const read = metadata ? readIdpMetadata(metadata) : { entityID: null, entryPoint: null, cert: null };
    const issuer = field(form, "issuer").trim() || read.entityID || "";
    const entryPoint = field(form, "entryPoint").trim() || read.entryPoint || "";
    const cert = field(form, "cert").trim() || read.cert || "";
    const missing = missingOf({ providerId }, "REQUIRED", { issuer, entryPoint, cert });
    if (missing) return { missing };
    return {
      body: {
        ...common,
        issuer,
        samlConfig: {
          entryPoint,
          cert,
          idpMetadata: { entityID: issuer, cert, ...(metadata ? { metadata } : {}) },
          spMetadata: { entityID: spEntityId(providerId) },
        },
      },
    };
  }
  const issuer = field(form, "issuer").trim();
  const clientId = field(form, "clientId").trim();
  const clientSecret = field(form, "clientSecret");
  const missing = missingOf({ providerId, issuer }, "REQUIRED", { clientId, clientSecret });
  if (missing) return { missing };
  const discoveryEndpoint = field(form, "discoveryEndpoint").trim();
  return {
    body: {
      ...common,
      issuer,
      oidcConfig: { clientId, clientSecret, ...(discoveryEndpoint ? { discoveryEndpoint } : {}) },
    },
  };
}

/**
 * The empty fields: those every connection needs are "required"; those of the chosen protocol
 * "required for this protocol" (a missing connection name is not the protocol's doing).
 */
function missingOf(
  always: Record<string, string>,
  alwaysCode: string,
  ofProtocol: Record<string, string>,
): Record<string, string> | null {
  const empty = [
    ...Object.entries(always).map(([name, value]) => [name, value, alwaysCode] as const),
    ...Object.entries(ofProtocol).map(([name, value]) => [name, value, "SSO_FIELD_REQUIRED"] as const),
  ].filter(([, value]) => value === "");
  return empty.length > 0 ? Object.fromEntries(empty.map(([name, , code]) => [name, code])) : null;
}

/** Tessera's SAML entity ID for a connection: its SP metadata URL, which the page shows. */
function spEntityId(providerId: string): string {
  const { baseURL } = readAppEnv(process.env);
  return `${baseURL}/api/auth/sso/saml2/sp/metadata?providerId=${encodeURIComponent(providerId)}`;
}
