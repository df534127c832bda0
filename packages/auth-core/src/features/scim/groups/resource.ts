import type { ScimGroupDoc, TeamDoc, TeamMemberDoc } from "../../../db/documents.ts";
import { GROUP_SCHEMA_URN, TEAM_EXTENSION_URN } from "../protocol/discovery.ts";

/**
 * A group as a SCIM Group resource (RFC 7643 §4.2) with Tessera's team extension: the team's id and
 * name, its members (each a User), the team role they hold (absent: team-member).
 */
export interface ScimGroupResource {
  schemas: string[];
  id: string;
  externalId?: string;
  displayName: string;
  members: { value: string; $ref: string; type: "User" }[];
  /** Absent when the group gives the default team role (team-member). */
  [TEAM_EXTENSION_URN]?: { role: string };
  meta: { resourceType: "Group"; created: string; lastModified: string; location: string };
}

export function toScimGroup(
  group: ScimGroupDoc,
  team: TeamDoc,
  members: readonly TeamMemberDoc[],
  location: string,
): ScimGroupResource {
  const id = team._id.toHexString();
  return {
    schemas: group.role !== null ? [GROUP_SCHEMA_URN, TEAM_EXTENSION_URN] : [GROUP_SCHEMA_URN],
    id,
    ...(group.externalId !== null ? { externalId: group.externalId } : {}),
    displayName: team.name,
    members: members.map((row) => {
      const userId = row.userId.toHexString();
      return { value: userId, $ref: `${location}/Users/${userId}`, type: "User" as const };
    }),
    ...(group.role !== null ? { [TEAM_EXTENSION_URN]: { role: group.role } } : {}),
    meta: {
      resourceType: "Group",
      created: group.createdAt.toISOString(),
      lastModified: group.updatedAt.toISOString(),
      location: `${location}/Groups/${id}`,
    },
  };
}
