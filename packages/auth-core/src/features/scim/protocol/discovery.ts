/**
 * The discovery documents (RFC 7644 §4, RFC 7643 §5–§7): what this service provider supports, the
 * User schema's attributes, the resource types. Paths as Better Auth's @better-auth/scim
 * (/scim/v2/ServiceProviderConfig, /scim/v2/Schemas[/:id], /scim/v2/ResourceTypes[/:id]).
 */

import { ScimError } from "./scim-error.ts";

export const USER_SCHEMA_URN = "urn:ietf:params:scim:schemas:core:2.0:User";
export const GROUP_SCHEMA_URN = "urn:ietf:params:scim:schemas:core:2.0:Group";
/** Tessera's Group extension: the team role the group's members hold (docs/security.md "SCIM"). */
export const TEAM_EXTENSION_URN = "urn:tessera:params:scim:schemas:extension:team:2.0:Group";
const LIST_SCHEMA = "urn:ietf:params:scim:api:messages:2.0:ListResponse";

/** The most resources one list answers (`count` above it is lowered to it, RFC 7644 §3.4.2.4). */
export const MAX_PAGE_SIZE = 100;

interface Attribute {
  name: string;
  type: "string" | "boolean" | "complex" | "dateTime" | "reference";
  multiValued: boolean;
  required: boolean;
  caseExact: boolean;
  mutability: "readOnly" | "readWrite" | "immutable" | "writeOnly";
  returned: "always" | "default" | "never" | "request";
  uniqueness: "none" | "server" | "global";
  description: string;
  subAttributes?: Attribute[];
  canonicalValues?: string[];
  referenceTypes?: string[];
}

function attribute(name: string, description: string, more: Partial<Attribute> = {}): Attribute {
  return {
    name,
    type: "string",
    multiValued: false,
    required: false,
    caseExact: false,
    mutability: "readWrite",
    returned: "default",
    uniqueness: "none",
    description,
    ...more,
  };
}

const USER_ATTRIBUTES: Attribute[] = [
  attribute("userName", "The directory's name for the user, unique in the organization (any case).", {
    required: true,
    uniqueness: "server",
  }),
  attribute("name", "The user's name.", {
    type: "complex",
    subAttributes: [
      attribute("formatted", "The full name (the account's name)."),
      attribute("givenName", "Given name."),
      attribute("familyName", "Family name."),
    ],
  }),
  // Required by Tessera (RFC 7643 §7 lets a service provider say so): an account always has a name
  // and an address. Left out on create, they come from userName.
  attribute("displayName", "The name shown for the user (the account's name).", { required: true }),
  // One address per account: a type or primary flag would say nothing, so none is kept.
  attribute("emails", "The account's one address.", {
    type: "complex",
    multiValued: true,
    required: true,
    subAttributes: [attribute("value", "The address.", { required: true })],
  }),
  attribute("active", "Whether the user holds a membership of the organization (unassigned: yes).", {
    type: "boolean",
  }),
  attribute("externalId", "The directory's identifier of the user.", { caseExact: true }),
];

const GROUP_ATTRIBUTES: Attribute[] = [
  attribute("displayName", "The team's name, unique in the organization (any case).", {
    required: true,
    uniqueness: "server",
  }),
  attribute("members", "The team's members: users of the organization.", {
    type: "complex",
    multiValued: true,
    subAttributes: [
      attribute("value", "The user's id.", { mutability: "immutable", caseExact: true, required: true }),
      attribute("$ref", "The user's URI.", {
        type: "reference",
        referenceTypes: ["User"],
        mutability: "immutable",
        caseExact: true,
      }),
      attribute("type", "Always User.", { mutability: "immutable", canonicalValues: ["User"] }),
    ],
  }),
  attribute("externalId", "The directory's identifier of the group.", { caseExact: true }),
];

/** `roles`: the team roles in force (teams/rules.ts), offered as the role's canonical values. */
function teamExtensionAttributes(roles: readonly string[]): Attribute[] {
  return [
    attribute("role", "The team role the group's members hold in its team.", {
      canonicalValues: [...roles],
      caseExact: true,
    }),
  ];
}

function schemaDocument(
  location: string,
  id: string,
  name: string,
  description: string,
  attributes: Attribute[],
): Record<string, unknown> {
  return {
    schemas: ["urn:ietf:params:scim:schemas:core:2.0:Schema"],
    id,
    name,
    description,
    attributes,
    meta: { resourceType: "Schema", location: `${location}/Schemas/${id}` },
  };
}

/** The schemas served: User, and with teams on, Group and Tessera's team extension. */
function schemas(location: string, teamRoles: readonly string[] | null): Record<string, unknown>[] {
  const user = schemaDocument(location, USER_SCHEMA_URN, "User", "User Account", USER_ATTRIBUTES);
  if (!teamRoles) return [user];
  return [
    user,
    schemaDocument(location, GROUP_SCHEMA_URN, "Group", "Group (a team)", GROUP_ATTRIBUTES),
    schemaDocument(
      location,
      TEAM_EXTENSION_URN,
      "TeamGroup",
      "The team role of a group's members",
      teamExtensionAttributes(teamRoles),
    ),
  ];
}

function resourceTypes(location: string, groups: boolean): Record<string, unknown>[] {
  const type = (
    id: string,
    endpoint: string,
    description: string,
    schema: string,
    extensions: unknown[],
  ) => ({
    schemas: ["urn:ietf:params:scim:schemas:core:2.0:ResourceType"],
    id,
    name: id,
    endpoint,
    description,
    schema,
    schemaExtensions: extensions,
    meta: { resourceType: "ResourceType", location: `${location}/ResourceTypes/${id}` },
  });
  const user = type("User", "/Users", "User Account", USER_SCHEMA_URN, []);
  if (!groups) return [user];
  return [
    user,
    type("Group", "/Groups", "Group (a team)", GROUP_SCHEMA_URN, [
      { schema: TEAM_EXTENSION_URN, required: false },
    ]),
  ];
}

function serviceProviderConfig(location: string): Record<string, unknown> {
  return {
    schemas: ["urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig"],
    patch: { supported: true },
    bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
    filter: { supported: true, maxResults: MAX_PAGE_SIZE },
    changePassword: { supported: false },
    sort: { supported: false },
    etag: { supported: true },
    authenticationSchemes: [
      {
        type: "oauthbearertoken",
        name: "OAuth Bearer Token",
        description: "The organization's SCIM token in the Authorization header.",
        specUri: "https://www.rfc-editor.org/info/rfc6750",
        primary: true,
      },
    ],
    meta: { resourceType: "ServiceProviderConfig", location: `${location}/ServiceProviderConfig` },
  };
}

export function listResponse(
  resources: unknown[],
  totalResults: number,
  startIndex: number,
): Record<string, unknown> {
  return {
    schemas: [LIST_SCHEMA],
    totalResults,
    startIndex,
    itemsPerPage: resources.length,
    Resources: resources,
  };
}

/**
 * GET on a discovery path: its document, or null when the path is not discovery's. `teamRoles`: the
 * team roles in force when teams are on (Group is then served), null when they are off.
 */
export function answerDiscovery(
  path: string,
  location: string,
  teamRoles: readonly string[] | null,
): Record<string, unknown> | null {
  const [, collection, id, extra] = path.split("/");
  if (extra !== undefined) return null;
  const one = id === undefined ? null : decodeSegment(id);
  switch (collection) {
    case "ServiceProviderConfig":
      return one === null ? serviceProviderConfig(location) : null;
    case "Schemas": {
      const all = schemas(location, teamRoles);
      if (one === null) return listResponse(all, all.length, 1);
      const found = all.find((schema) => schema.id === one);
      if (found) return found;
      throw new ScimError(404, `Schema ${one} not found`);
    }
    case "ResourceTypes": {
      const all = resourceTypes(location, teamRoles !== null);
      if (one === null) return listResponse(all, all.length, 1);
      const found = all.find((type) => type.id === one);
      if (found) return found;
      throw new ScimError(404, `Resource type ${one} not found`);
    }
    default:
      return null;
  }
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new ScimError(400, "Invalid path", "invalidPath");
  }
}
