import type { Team, TeamMember } from "../../../contracts/organization-models.ts";
import type { TeamDoc, TeamMemberDoc } from "../../../db/documents.ts";

export type { Team, TeamMember } from "../../../contracts/organization-models.ts";

export function toTeam(doc: TeamDoc): Team {
  return {
    id: doc._id.toHexString(),
    name: doc.name,
    organizationId: doc.organizationId.toHexString(),
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt,
  };
}

export function toTeamMember(doc: TeamMemberDoc): TeamMember {
  return {
    id: doc._id.toHexString(),
    teamId: doc.teamId.toHexString(),
    userId: doc.userId.toHexString(),
    createdAt: doc.createdAt,
  };
}
