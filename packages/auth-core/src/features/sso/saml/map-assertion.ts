import type { SsoMapping } from "../../../contracts/sso-models.ts";
import type { MappedIdentity } from "../rules.ts";

/**
 * Where each user field is read from when the connection's mapping does not say: Better Auth's
 * names first (email, displayName, givenName, surname), then the claim URIs Entra ID and ADFS send
 * and the LDAP OIDs of eduPerson IdPs.
 */
const SAML_ATTRIBUTES = {
  email: [
    "email",
    "mail",
    "http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress",
    "urn:oid:0.9.2342.19200300.100.1.3",
  ],
  emailVerified: ["email_verified"],
  name: [
    "displayName",
    "name",
    "http://schemas.microsoft.com/identity/claims/displayname",
    "urn:oid:2.16.840.1.113730.3.1.241",
  ],
  firstName: [
    "givenName",
    "http://schemas.xmlsoap.org/ws/2005/05/identity/claims/givenname",
    "urn:oid:2.5.4.42",
  ],
  lastName: [
    "surname",
    "sn",
    "http://schemas.xmlsoap.org/ws/2005/05/identity/claims/surname",
    "urn:oid:2.5.4.4",
  ],
  image: ["picture"],
  groups: ["groups", "http://schemas.microsoft.com/ws/2008/06/identity/claims/groups", "memberOf"],
} as const;

/**
 * The user's fields from a verified assertion, read where the connection's mapping says (else the
 * defaults above). The NameID is the account id unless the mapping names an attribute; it is the
 * address only when no attribute carries one and it has the emailAddress format.
 */
export function mapSamlAssertion(
  assertion: { nameId: string; nameIdFormat: string | null; attributes: Record<string, string | string[]> },
  mapping: SsoMapping,
): MappedIdentity {
  const values = (key: keyof typeof SAML_ATTRIBUTES): string[] => {
    const names = mapping[key] ? [mapping[key]] : SAML_ATTRIBUTES[key];
    for (const name of names) {
      const value = assertion.attributes[name];
      const list = (Array.isArray(value) ? value : value === undefined ? [] : [value]).filter(
        (item) => item !== "",
      );
      if (list.length > 0) return list;
    }
    return [];
  };
  const first = (key: keyof typeof SAML_ATTRIBUTES) => values(key)[0] ?? null;
  const nameIdIsEmail = assertion.nameIdFormat === EMAIL_NAME_ID_FORMAT;
  const email = first("email") ?? (nameIdIsEmail ? assertion.nameId : null);
  const joined = [first("firstName"), first("lastName")].filter((part) => part !== null).join(" ");
  const mappedId = mapping.id === undefined ? assertion.nameId : assertion.attributes[mapping.id];
  return {
    id: (Array.isArray(mappedId) ? mappedId[0] : mappedId) || null,
    email: email?.trim().toLowerCase() ?? null,
    emailVerified: first("emailVerified") === "true",
    name: (first("name") ?? joined).slice(0, 256),
    image: first("image"),
    groups: values("groups"),
  };
}

const EMAIL_NAME_ID_FORMAT = "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress";
