import type { ScimUserDoc, UserDoc } from "../../../db/documents.ts";
import { USER_SCHEMA_URN } from "../protocol/discovery.ts";

/**
 * A user as a SCIM User resource (RFC 7643 §4.1): the account's address and name, the directory's
 * record (externalId, given and family name, active). Tessera keeps one address per account: it is
 * the work, primary one.
 */
export interface ScimUserResource {
  schemas: [typeof USER_SCHEMA_URN];
  id: string;
  externalId?: string;
  userName: string;
  name: { formatted: string; givenName?: string; familyName?: string };
  displayName: string;
  emails: [{ value: string; type: "work"; primary: true }];
  active: boolean;
  meta: { resourceType: "User"; created: string; lastModified: string; location: string };
}

export function toScimUser(user: UserDoc, link: ScimUserDoc, location: string): ScimUserResource {
  const id = user._id.toHexString();
  return {
    schemas: [USER_SCHEMA_URN],
    id,
    ...(link.externalId !== null ? { externalId: link.externalId } : {}),
    userName: link.userName,
    name: {
      formatted: user.name,
      ...(link.givenName !== null ? { givenName: link.givenName } : {}),
      ...(link.familyName !== null ? { familyName: link.familyName } : {}),
    },
    displayName: user.name,
    emails: [{ value: user.email, type: "work", primary: true }],
    active: link.active,
    meta: {
      resourceType: "User",
      created: link.createdAt.toISOString(),
      lastModified: link.updatedAt.toISOString(),
      location: `${location}/Users/${id}`,
    },
  };
}
