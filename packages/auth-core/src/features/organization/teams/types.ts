import { type Team, type TeamMember, teamModel } from "../../../contracts/organization-models.ts";
import type { TeamDoc, TeamMemberDoc } from "../../../db/documents.ts";
import { toModelValue } from "../../../db/model.ts";

export type { Team, TeamMember } from "../../../contracts/organization-models.ts";

/** The API value of a stored team (contracts/organization-models.ts teamModel). */
export function toTeam(doc: TeamDoc): Team {
  return toModelValue(teamModel, doc);
}

export function toTeamMember(doc: TeamMemberDoc): TeamMember {
  return {
    id: doc._id.toHexString(),
    teamId: doc.teamId.toHexString(),
    userId: doc.userId.toHexString(),
    createdAt: doc.createdAt,
  };
}
