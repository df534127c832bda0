/**
 * The User attributes a filter may name (RFC 7643 §4.1) and where Tessera keeps each: `user` fields
 * are the account's (users' owner), `link` fields the directory's record of the membership
 * (features/scim/users). `constant`: what every Tessera user has (its one address is the work,
 * primary one). Anything else is refused with invalidFilter.
 */

type AttributeType = "string" | "boolean" | "date" | "id";

export interface StoredAttribute {
  side: "user" | "link";
  field: string;
  type: AttributeType;
  /** Stored lower-cased: values compare lower-cased and exactly (an index serves `eq`). */
  lowerCased?: true;
  /** RFC 7643 caseExact: compared as typed; otherwise case-insensitively. */
  caseExact?: true;
}

interface ConstantAttribute {
  side: "constant";
  value: string | boolean;
}

export type AttributeTarget = StoredAttribute | ConstantAttribute;

const USER_SCHEMA = "urn:ietf:params:scim:schemas:core:2.0:user";

const EMAIL: StoredAttribute = { side: "user", field: "email", type: "string", lowerCased: true };
const NAME: StoredAttribute = { side: "user", field: "name", type: "string" };

/** By lower-cased `attribute` or `attribute.sub`. */
const TOP_LEVEL: Readonly<Record<string, AttributeTarget>> = {
  id: { side: "link", field: "userId", type: "id" },
  username: { side: "link", field: "userNameKey", type: "string", lowerCased: true },
  displayname: NAME,
  "name.formatted": NAME,
  "name.givenname": { side: "link", field: "givenName", type: "string" },
  "name.familyname": { side: "link", field: "familyName", type: "string" },
  emails: EMAIL,
  "emails.value": EMAIL,
  "emails.type": { side: "constant", value: "work" },
  "emails.primary": { side: "constant", value: true },
  externalid: { side: "link", field: "externalId", type: "string", caseExact: true },
  active: { side: "link", field: "active", type: "boolean" },
  "meta.created": { side: "link", field: "createdAt", type: "date" },
  "meta.lastmodified": { side: "link", field: "updatedAt", type: "date" },
};

/** The stored place of a path; null when the attribute is unknown (or not filterable here). */
export function findAttribute(
  schema: string | null,
  attribute: string,
  sub: string | null,
): AttributeTarget | null {
  if (schema !== null && schema !== USER_SCHEMA) return null;
  return TOP_LEVEL[sub === null ? attribute : `${attribute}.${sub}`] ?? null;
}
