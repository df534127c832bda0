import type { ScimUserDoc, UserDoc } from "../../../db/documents.ts";
import { USER_SCHEMA_URN } from "../protocol/discovery.ts";

/**
 * A user as a SCIM User resource (RFC 7643 §4.1): the account's address and name, the directory's
 * record (userName, externalId, name, active). Tessera keeps one address per account, so `emails`
 * holds one value, without type or primary.
 */
export interface ScimUserResource {
  schemas: [typeof USER_SCHEMA_URN];
  id: string;
  externalId?: string;
  userName: string;
  name?: { formatted: string; givenName?: string; familyName?: string };
  displayName: string;
  emails: [{ value: string }];
  active?: boolean;
  meta: { resourceType: "User"; created: string; lastModified: string; location: string };
}

export function toScimUser(user: UserDoc, link: ScimUserDoc, location: string): ScimUserResource {
  const id = user._id.toHexString();
  return {
    schemas: [USER_SCHEMA_URN],
    id,
    ...(link.externalId !== null ? { externalId: link.externalId } : {}),
    userName: link.userName,
    ...nameOf(link),
    displayName: user.name,
    emails: [{ value: user.email }],
    ...(link.activeUnset ? {} : { active: link.active }),
    meta: {
      resourceType: "User",
      created: link.createdAt.toISOString(),
      lastModified: link.updatedAt.toISOString(),
      location: `${location}/Users/${id}`,
    },
  };
}

/**
 * `name` as the directory gave it, absent when it gave none (a removed name stays removed,
 * RFC 7644 §3.5.2.2); formatted, when not sent, joins the given and family names.
 */
function nameOf(link: ScimUserDoc): Pick<ScimUserResource, "name"> {
  const formatted = link.formatted ?? ([link.givenName, link.familyName].filter(Boolean).join(" ") || null);
  if (formatted === null) return {};
  return {
    name: {
      formatted,
      ...(link.givenName !== null ? { givenName: link.givenName } : {}),
      ...(link.familyName !== null ? { familyName: link.familyName } : {}),
    },
  };
}
