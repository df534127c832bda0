import type { ScimGroupDoc, TeamDoc, TeamMemberDoc, UserDoc } from "../../../db/documents.ts";
import { GROUP_SCHEMA_URN, TEAM_EXTENSION_URN } from "../protocol/discovery.ts";

/**
 * A group as a SCIM Group resource (RFC 7643 §4.2) with Tessera's team extension: the team's id and
 * name, its members (each a User, `display` its account's name), the team role they hold.
 */
export interface ScimGroupResource {
  schemas: [typeof GROUP_SCHEMA_URN, typeof TEAM_EXTENSION_URN];
  id: string;
  externalId?: string;
  displayName: string;
  members: { value: string; $ref: string; display?: string; type: "User" }[];
  [TEAM_EXTENSION_URN]: { role: string };
  meta: { resourceType: "Group"; created: string; lastModified: string; location: string };
}

export function toScimGroup(
  group: ScimGroupDoc,
  team: TeamDoc,
  members: readonly TeamMemberDoc[],
  users: ReadonlyMap<string, UserDoc>,
  location: string,
): ScimGroupResource {
  const id = team._id.toHexString();
  return {
    schemas: [GROUP_SCHEMA_URN, TEAM_EXTENSION_URN],
    id,
    ...(group.externalId !== null ? { externalId: group.externalId } : {}),
    displayName: team.name,
    members: members.map((row) => {
      const userId = row.userId.toHexString();
      const name = users.get(userId)?.name;
      return {
        value: userId,
        $ref: `${location}/Users/${userId}`,
        ...(name ? { display: name } : {}),
        type: "User" as const,
      };
    }),
    [TEAM_EXTENSION_URN]: { role: group.role },
    meta: {
      resourceType: "Group",
      created: group.createdAt.toISOString(),
      lastModified: group.updatedAt.toISOString(),
      location: `${location}/Groups/${id}`,
    },
  };
}
